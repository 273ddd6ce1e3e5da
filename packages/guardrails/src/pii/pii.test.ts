import { Agent, GuardrailTripped, messageText, tool, toolResultsOf, type AgentStreamEvent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pii, type PiiFinding } from '../index.js';

describe('pii()', () => {
  it('redacts what is stored, sent to the model, streamed and given to tools', async () => {
    const seen: unknown[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'looks up a customer by e-mail',
      inputSchema: z.object({ email: z.string() }),
      callback: (input) => (seen.push(input), { phone: '+44 20 7946 0958', name: 'Aiko' }),
    });
    const model = new ScriptedModel([
      { toolUses: [{ name: 'lookup', input: { email: 'aiko@example.com' } }] },
      'Your card 4111 1111 1111 1111 is on file. Anything else?',
    ]);
    const guard = pii();
    const agent = new Agent({
      model,
      tools: [lookup],
      inputGuardrails: [guard],
      outputGuardrails: [guard],
      toolGuardrails: [guard],
    });
    const events: AgentStreamEvent[] = [];
    for await (const e of agent.stream('I am aiko@example.com, card 4111-1111-1111-1111')) events.push(e);
    const everything = JSON.stringify([agent.messages, events, model.requests, seen]);
    for (const secret of ['aiko@example.com', '4111', '7946']) expect(everything).not.toContain(secret);
    expect(messageText(agent.messages[0])).toBe('I am [email], card [card]');
    expect(seen).toEqual([{ email: '[email]' }]);
    expect(JSON.stringify(agent.messages.flatMap(toolResultsOf))).toContain('[phone]');
    expect(messageText(agent.messages.at(-1))).toBe('Your card [card] is on file. Anything else?');
  });

  it('blocks, naming the kinds found; detects without changing anything', async () => {
    const blocking = new Agent({ model: new ScriptedModel([]), inputGuardrails: [pii({ action: 'block' })] });
    const error = await blocking.invoke('IBAN DE89 3704 0044 0532 0130 00').catch((e: unknown) => e);
    expect(GuardrailTripped.is(error) && error.reason).toBe('personal data (iban)');
    const found: PiiFinding[] = [];
    const detecting = new Agent({
      model: new ScriptedModel(['ok']),
      inputGuardrails: [pii({ action: 'detect', onDetect: (f) => found.push(...f) })],
    });
    await detecting.invoke('mail me: a@b.io');
    expect(found.map((f) => f.kind)).toEqual(['email']);
    expect(messageText(detecting.messages[0])).toBe('mail me: a@b.io');
  });
});
