import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { narratedHandoff } from './narrated-handoff.js';
import { defaultTransfer } from './transfer-input.js';

const offered = ['Billing agent', 'Refund agent', 'tech_support'].map((name) =>
  defaultTransfer(new Agent({ name, model: new ScriptedModel([]) })),
);
const target = (text: string): string | undefined => narratedHandoff(text, offered)?.agent.name;

describe('narratedHandoff', () => {
  it.each([
    ["I'll transfer you to the billing agent now.", 'Billing agent'],
    ['Let me transfer you to Billing.', 'Billing agent'],
    ['I’m going to hand you over to our refund team.', 'Refund agent'],
    ['Transferring you to refund now, one moment.', 'Refund agent'],
    ['I am handing this conversation over to tech support.', 'tech_support'],
    ['I will connect you with the Tech Support agent.', 'tech_support'],
    ['Calling transfer_to_refund_agent for you.', 'Refund agent'],
  ])('sees an announced transfer in %j', (text, name) => {
    expect(target(text)).toBe(name);
  });

  it.each([
    'Your billing address is up to date.',
    'I can transfer you to billing if you like.',
    'Would you like me to transfer you to billing?',
    'I will not transfer you to billing; I fixed it.',
    'The refund agent already approved it yesterday.',
    'The bank transfer to your account went through.',
    'I transferred 12 EUR to your card.',
    'Please contact a human in the sales department.',
  ])('sees none in %j', (text) => {
    expect(target(text)).toBeUndefined();
  });
});
