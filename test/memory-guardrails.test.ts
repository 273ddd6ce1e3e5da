import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { pii } from '@skein/guardrails';
import { InMemoryMemoryStore, Memory } from '@skein/memory';
import { SqliteMemoryStore } from '@skein/session-sqlite';
import { describe, expect, it } from 'vitest';

// What a guardrail redacted is what long-term memory keeps: memory records the turn's messages as the
// agent stored them (after its input and output guardrails), never as the customer or the model sent
// them, so a later conversation's recall cannot bring a card number or an e-mail address back.

const CARD = '4111 1111 1111 1111';
const MAIL = 'ann@example.com';

function desk(memory: Memory, answer: string): { agent: Agent; model: ScriptedModel } {
  const model = new ScriptedModel([answer], { loop: true });
  const agent = new Agent({ model, memory, inputGuardrails: [pii()], outputGuardrails: [pii()] });
  return { agent, model };
}

describe.each([
  ['in memory', () => new InMemoryMemoryStore()],
  ['SQLite', () => new SqliteMemoryStore({ path: join(mkdtempSync(join(tmpdir(), 'skein-memory-pii-')), 'desk.db') })],
])('memory behind PII guardrails (%s)', (_name, store) => {
  it('stores the redacted prompt and answer, and recall in a later conversation shows only those', async () => {
    const memory = new Memory({ store: store() });
    const first = desk(memory, `Refund for order 42 goes to the card you gave; receipt to ${MAIL}.`);
    await first.agent.invoke(`Refund order 42 to my card ${CARD}, mail me at ${MAIL}`, {
      memory: { resource: 'ann', thread: 'c1' },
    });

    const kept = await memory.store.listMessages('ann');
    expect(kept.map((m) => m.role)).toEqual(['user', 'assistant']);
    const text = kept.map((m) => m.text).join('\n');
    expect(text).toContain('order 42');
    expect(text).not.toContain(CARD);
    expect(text).not.toContain(MAIL);

    const later = desk(memory, 'Noted.');
    await later.agent.invoke('Where is my refund for order 42?', { memory: { resource: 'ann', thread: 'c2' } });
    const system = later.model.requests[0]?.systemPrompt ?? '';
    expect(system).toContain('order 42');
    expect(system).not.toContain(CARD);
    expect(system).not.toContain(MAIL);
  });
});
