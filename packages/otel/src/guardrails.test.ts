import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, tool, type Guardrail } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { instrument } from './index.js';
import { harness } from './test-support/harness.js';

// A redaction applies to what is traced as to what is stored: with message content captured, no span
// holds the text a guardrail rewrote (issue 49), on the prompt, the answer or a tool's input and result.

const CARD = '4111 1111 1111 1111';
const redact = (text: string): string => text.replaceAll(CARD, '[card]');
const cards: Guardrail = {
  name: 'cards',
  check: (subject) => {
    if ('text' in subject && subject.text.includes(CARD)) return { action: 'rewrite', text: redact(subject.text) };
    if ('phase' in subject) {
      const seen = JSON.stringify(subject.phase === 'before' ? subject.input : subject.result);
      if (!seen.includes(CARD)) return { action: 'pass' };
      return subject.phase === 'before'
        ? { action: 'rewrite', input: JSON.parse(redact(seen)) }
        : { action: 'rewrite', result: JSON.parse(redact(seen)) };
    }
    return { action: 'pass' };
  },
};
const lookup = tool({
  name: 'lookup',
  description: 'Looks up a payment.',
  inputSchema: z.object({ card: z.string() }),
  callback: ({ card }) => `payment with ${card}: 80 EUR`,
});

describe('guardrails and traces', () => {
  it('no span holds what a guardrail redacted (prompt, answer, tool input and result)', async () => {
    const h = harness();
    const agent = new Agent({
      name: 'support',
      model: new ScriptedModel([
        { toolUses: [{ name: 'lookup', input: { card: CARD }, toolUseId: 't1' }] },
        `Your card ${CARD} was charged 80 EUR.`,
      ]),
      tools: [lookup],
      inputGuardrails: [cards],
      outputGuardrails: [cards],
      toolGuardrails: [cards],
    });
    instrument(agent, {
      tracerProvider: h.tracerProvider,
      meterProvider: h.meterProvider,
      captureMessageContent: true,
    });
    const result = await agent.invoke(`Was my card ${CARD} charged?`);
    expect(String(result)).toBe('Your card [card] was charged 80 EUR.');
    const traced = JSON.stringify(h.spans().map((s) => [s.name, s.attributes, s.events]));
    expect(traced).toContain('[card]');
    expect(traced).not.toContain(CARD);
  });
});
