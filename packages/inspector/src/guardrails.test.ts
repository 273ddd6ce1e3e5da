import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, GuardrailTripped, type Guardrail, type OutputSubject } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager } from '@skein/session-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureIo } from './test-support/capture-io.js';

// A graph run a guardrail tripped, stored in file sessions, read back by `skein show`: where and why,
// and nothing of what it blocked.

let dir = '';
const card = '4111 1111 1111 1111';
const noCards: Guardrail<OutputSubject> = {
  name: 'no-cards',
  check: ({ text }) => (text.includes('4111') ? { action: 'block', reason: 'a card number' } : { action: 'pass' }),
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-inspector-guardrails-'));
  const graph = new GraphBuilder()
    .setId('support')
    .addNode(new Agent({ name: 'billing', model: new ScriptedModel([`Your card ${card} was charged.`]) }))
    .setGuardrails({ outputGuardrails: [noCards] })
    .setSessionManager(new FileSessionManager({ sessionId: 'tripped', storageDir: dir }))
    .build();
  const error = await graph.invoke('charged twice?').catch((e: unknown) => e);
  if (!GuardrailTripped.is(error)) throw new Error('the guardrail did not trip');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<string> {
  const io = captureIo();
  expect(await runCli(args, io)).toBe(0);
  return io.out();
}

describe('skein show, a run a guardrail tripped', () => {
  it('shows where and why in the timeline and the marker in the conversation, never what was blocked', async () => {
    const timeline = await cli('show', dir, 'tripped');
    expect(timeline).toMatch(/graph support {2}failed/);
    expect(timeline).toContain(
      'guardrail from billing: Guardrail no-cards blocked the output in billing: a card number',
    );
    const conversation = await cli('show', dir, 'tripped', '--agent', 'billing');
    expect(conversation).toContain('[withheld: guardrail no-cards blocked the answer: a card number]');
    expect(timeline + conversation).not.toContain('4111');
  });
});
