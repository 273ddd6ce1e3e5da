import {
  Agent,
  type AgentStreamEvent,
  type EmbeddingModel,
  type JsonObject,
  MemoryError,
  SkeinError,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemoryMemoryStore, MEMORY_HEADING, Memory } from './index.js';

const SYSTEM = 'You are the support desk of an online shop.';

/** A fresh agent on `memory` whose model answers `answer` (recording what it was sent). */
function deskAgent(memory: Memory, answer = 'Noted.'): { agent: Agent; model: ScriptedModel } {
  const model = new ScriptedModel([answer], { loop: true });
  return { agent: new Agent({ model, memory, systemPrompt: SYSTEM }), model };
}

async function drain(stream: AsyncGenerator<AgentStreamEvent, unknown>): Promise<AgentStreamEvent[]> {
  const events: AgentStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

describe('Memory: recall across conversations', () => {
  it('a later conversation of the same customer is told what the earlier one said; another customer is not', async () => {
    const memory = new Memory();
    const first = deskAgent(memory, 'I reversed the duplicate charge on invoice INV-42.');
    await first.agent.invoke('I was charged twice for order 42', { memory: { resource: 'ann', thread: 'c1' } });

    const later = deskAgent(memory);
    await later.agent.invoke('Did you fix my double charge?', { memory: { resource: 'ann', thread: 'c2' } });
    const system = later.model.requests[0]?.systemPrompt ?? '';
    expect(system).toContain('order 42');
    expect(system).toContain('INV-42');

    const other = deskAgent(memory);
    await other.agent.invoke('Did you fix my double charge?', { memory: { resource: 'bob', thread: 'c1' } });
    expect(other.model.requests[0]?.systemPrompt).toBe(SYSTEM);
  });

  it('keeps the system prompt before its part byte for byte the same across turns, and recall is made once per turn', async () => {
    const memory = new Memory({ workingMemory: { schema: z.object({ name: z.string().optional() }) } });
    await deskAgent(memory, 'Charge reversed.').agent.invoke('charged twice for order 42', {
      memory: { resource: 'ann', thread: 'c1' },
    });
    const model = new ScriptedModel([
      { toolUses: [{ name: 'update_working_memory', input: { patch: { name: 'Ann' } } }] },
      'Hi Ann.',
      'The charge on order 42 is reversed.',
    ]);
    const agent = new Agent({ model, memory, systemPrompt: SYSTEM });
    await agent.invoke('My name is Ann', { memory: { resource: 'ann', thread: 'c2' } });
    await agent.invoke('What about my charge?', { memory: { resource: 'ann', thread: 'c2' } });
    const prompts = model.requests.map((r) => r.systemPrompt ?? '');
    expect(prompts).toHaveLength(3);
    const prefix = `${SYSTEM}\n\n${MEMORY_HEADING}\n`;
    for (const p of prompts) expect(p.startsWith(prefix)).toBe(true);
    // The tool's update shows in the next call of the same turn.
    expect(prompts[0]).toContain('{}');
    expect(prompts[1]).toContain('{"name":"Ann"}');
    expect(prompts[2]).toContain('order 42');
  });

  it('without { memory } on invoke, memory neither reads nor writes', async () => {
    const store = new InMemoryMemoryStore();
    const { agent, model } = deskAgent(new Memory({ store }));
    await agent.invoke('I was charged twice for order 42');
    expect(model.requests[0]?.systemPrompt).toBe(SYSTEM);
    expect(await store.listResources()).toEqual([]);
  });

  it('forget(resource) erases everything of it, and recall finds nothing after', async () => {
    const store = new InMemoryMemoryStore();
    const memory = new Memory({ store });
    await deskAgent(memory).agent.invoke('order 42 was charged twice', { memory: { resource: 'ann', thread: 'c1' } });
    await deskAgent(memory).agent.invoke('order 7 please', { memory: { resource: 'bob', thread: 'c1' } });
    await memory.forget('ann');
    expect(await store.listResources()).toEqual(['bob']);
    const later = deskAgent(memory);
    await later.agent.invoke('my charge on order 42?', { memory: { resource: 'ann', thread: 'c2' } });
    expect(later.model.requests[0]?.systemPrompt).toBe(SYSTEM);
  });
});

describe('Memory: working memory by merge patch', () => {
  const schema = z.object({
    name: z.string().optional(),
    plan: z.string().optional(),
    orders: z.array(z.string()).optional(),
  });

  it('two conversations of one customer updating at the same time both keep their fields', async () => {
    const memory = new Memory({ workingMemory: { schema } });
    const update = (patch: JsonObject) =>
      new Agent({
        model: new ScriptedModel([{ toolUses: [{ name: 'update_working_memory', input: { patch } }] }, 'ok']),
        memory,
      });
    const patches = [{ name: 'Ann' }, { plan: 'gold' }, { orders: ['42'] }, { name: 'Ann B.' }];
    await Promise.all(
      patches.map((p, i) => update(p).invoke('hello', { memory: { resource: 'ann', thread: `c${i}` } })),
    );
    const doc = await memory.store.readDocument('ann', 'working@shared');
    expect(doc?.value).toMatchObject({ plan: 'gold', orders: ['42'] });
    expect(['Ann', 'Ann B.']).toContain(doc?.value['name']);
    expect(doc?.version).toBe(4);
  });

  it('null removes a field; an update the schema refuses is an error result and writes nothing', async () => {
    const memory = new Memory({ workingMemory: { schema } });
    await memory.store.writeDocument('ann', 'working@shared', { name: 'Ann', plan: 'gold' }, 0);
    const model = new ScriptedModel([
      { toolUses: [{ name: 'update_working_memory', input: { patch: { plan: null } } }] },
      { toolUses: [{ name: 'update_working_memory', input: { patch: { orders: 42 } } }] },
      'done',
    ]);
    const agent = new Agent({ model, memory });
    await agent.invoke('hi', { memory: { resource: 'ann' } });
    const results = agent.messages.flatMap((m) => m.content.flatMap((b) => ('toolResult' in b ? [b.toolResult] : [])));
    expect(results.map((r) => r.status)).toEqual(['success', 'error']);
    expect(JSON.stringify(results[1])).toContain('does not match its schema');
    expect((await memory.store.readDocument('ann', 'working@shared'))?.value).toEqual({ name: 'Ann' });
  });

  it('stored working memory the schema does not accept: a MemoryError, and nothing of the turn is stored', async () => {
    const memory = new Memory({ workingMemory: { schema } });
    await memory.store.writeDocument('ann', 'working@shared', { name: 7 }, 0);
    const error = await deskAgent(memory)
      .agent.invoke('hi', { memory: { resource: 'ann', thread: 'c1' } })
      .catch((e: unknown) => e);
    expect(MemoryError.is(error) && error.code).toBe('memory_schema_mismatch');
    expect(String((error as Error).message)).toMatch(/does not match the schema/);
    expect(await memory.store.listMessages('ann')).toEqual([]);
  });
});

describe('Memory: bad input', () => {
  it('a resource id with path characters: a MemoryError before anything is read or written', async () => {
    const store = new InMemoryMemoryStore();
    for (const resource of ['../etc', 'a/b', '', 'x'.repeat(300)]) {
      const error = await deskAgent(new Memory({ store }))
        .agent.invoke('hi', { memory: { resource } })
        .catch((e: unknown) => e);
      expect(SkeinError.is(error) && (error as SkeinError).code).toBe('memory_invalid_id');
    }
    expect(await store.listResources()).toEqual([]);
    await expect(new Memory({ store }).forget('../x')).rejects.toThrow(/Invalid memory resource/);
  });

  it('an embedding model that answers the wrong dimension: a MemoryError, nothing stored', async () => {
    const store = new InMemoryMemoryStore();
    const embeddings: EmbeddingModel = { modelId: 'short', dimensions: 4, embed: async (t) => t.map(() => [1, 2, 3]) };
    const error = await deskAgent(new Memory({ store, recall: { embeddings } }))
      .agent.invoke('hi there', { memory: { resource: 'ann' } })
      .catch((e: unknown) => e);
    expect(MemoryError.is(error) && error.code).toBe('memory_embedding_dimension');
    expect(await store.listMessages('ann')).toEqual([]);
  });
});

describe('Memory: vectors', () => {
  /** Words to a bag-of-letters vector: texts sharing words are near. */
  const bag = (text: string): number[] => {
    const v = new Array<number>(26).fill(0);
    for (const c of text.toLowerCase())
      if (c >= 'a' && c <= 'z') v[c.charCodeAt(0) - 97] = (v[c.charCodeAt(0) - 97] ?? 0) + 1;
    return v;
  };

  it('embeds each message once, when it is stored; recall embeds only the query', async () => {
    const calls: string[][] = [];
    const embeddings: EmbeddingModel = {
      modelId: 'bag',
      embed: async (texts) => (calls.push([...texts]), texts.map(bag)),
    };
    const memory = new Memory({ recall: { embeddings } });
    await deskAgent(memory, 'Reversed.').agent.invoke('double charge on order 42', {
      memory: { resource: 'ann', thread: 'c1' },
    });
    await deskAgent(memory, 'Sure.').agent.invoke('any news on my double charge', {
      memory: { resource: 'ann', thread: 'c2' },
    });
    // Each prompt once (as recall's query, reused when stored), each answer once (when stored).
    expect(calls).toEqual([['double charge on order 42'], ['Reversed.'], ['any news on my double charge'], ['Sure.']]);
    const stored = await memory.store.listMessages('ann');
    expect(stored.every((m) => m.embedding?.length === 26)).toBe(true);
  });

  it('recall that overruns its latency cap is skipped with a warning in the stream; the turn goes on', async () => {
    const slow: EmbeddingModel = {
      modelId: 'slow',
      embed: async (texts) => {
        if (texts.length === 1 && texts[0]?.startsWith('where')) await new Promise((r) => setTimeout(r, 300));
        return texts.map(bag);
      },
    };
    const memory = new Memory({ recall: { embeddings: slow, mode: 'vector', latencyMs: 30 } });
    await deskAgent(memory).agent.invoke('order 42', { memory: { resource: 'ann', thread: 'c1' } });
    const { agent, model } = deskAgent(memory, 'Which order?');
    const started = Date.now();
    const events = await drain(agent.stream('where is it', { memory: { resource: 'ann', thread: 'c2' } }));
    expect(Date.now() - started).toBeLessThan(250);
    const warning = events.find((e) => e.type === 'warning');
    expect(warning).toMatchObject({ code: 'memory_recall_skipped' });
    expect(JSON.stringify(warning)).toContain('longer than 30 ms');
    expect(model.requests[0]?.systemPrompt).toBe(SYSTEM);
  });
});

describe('Memory: observational memory', () => {
  it('keeps facts after a turn, outside the turn, from the turn only, on its own budget', async () => {
    const seen: string[] = [];
    const observer = new ScriptedModel(
      [
        (request) => {
          seen.push(
            String(
              request.messages
                .at(-1)
                ?.content.map((b) => ('text' in b ? b.text : ''))
                .join(''),
            ),
          );
          return { text: '- Ann was charged twice for order 42', delayMs: 50 };
        },
      ],
      { loop: true },
    );
    const memory = new Memory({ observe: { model: observer, budget: { modelCalls: 2 } } });
    const t0 = Date.now();
    await deskAgent(memory, 'Reversed.').agent.invoke('charged twice for order 42', {
      memory: { resource: 'ann', thread: 'c1' },
    });
    expect(Date.now() - t0).toBeLessThan(50);
    await memory.idle();
    const later = deskAgent(memory);
    await later.agent.invoke('hello again', { memory: { resource: 'ann', thread: 'c2' } });
    expect(later.model.requests[0]?.systemPrompt).toContain('- Ann was charged twice for order 42');
    await memory.idle();
    // The second observation got the known facts as such, and only the new turn as messages.
    expect(seen[1]).toContain('Facts known so far:\n- Ann was charged twice for order 42');
    expect(seen[1]?.split('Messages of the new turn:')[1]).toBe('\nuser: hello again\nassistant: Noted.');
    await deskAgent(memory).agent.invoke('third', { memory: { resource: 'ann', thread: 'c3' } });
    await memory.idle();
    expect(seen).toHaveLength(2); // its budget of 2 model calls is spent
    expect(memory.observerErrors).toEqual([]);
  });
});
