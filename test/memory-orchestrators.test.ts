import { Agent, type EmbeddingModel, type ModelRequest } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { Memory } from '@skein/memory';
import { Swarm } from '@skein/swarm';
import { describe, expect, it } from 'vitest';

/** Answers from memory's part of its system prompt: the order it recalls, else it asks which. */
const answering = (name: string): Agent =>
  new Agent({
    name,
    model: new ScriptedModel(
      [
        (request: ModelRequest) => {
          const order = /order (\d+)/.exec(request.systemPrompt ?? '')?.[1];
          return order ? `Order ${order}: the duplicate charge is reversed.` : 'Which order is it about?';
        },
      ],
      { loop: true },
    ),
  });

/** Counts the texts embedded: each query once per run, each stored message once. */
function countingEmbeddings(): EmbeddingModel & { texts: string[] } {
  const texts: string[] = [];
  return {
    modelId: 'letters',
    texts,
    embed: async (batch) => {
      texts.push(...batch);
      return batch.map((t) => [t.length % 7, t.split(' ').length, t.includes('charge') ? 1 : 0]);
    },
  };
}

describe('memory shared by an orchestrator', () => {
  it('graph: every node reads it, recall runs once per run, the run is recorded once (task and answer)', async () => {
    const embeddings = countingEmbeddings();
    const memory = new Memory({ recall: { embeddings } });
    const graph = () =>
      new GraphBuilder()
        .addNode(answering('triage'), 'triage')
        .addNode(answering('billing'), 'billing')
        .addEdge('triage', 'billing')
        .setMemory(memory)
        .build();
    const first = await graph().invoke('I was charged twice for order 42', {
      memory: { resource: 'ann', thread: 'c1' },
    });
    expect(first.status).toBe('completed');
    expect((await memory.store.listMessages('ann')).map((m) => m.text)).toEqual([
      'I was charged twice for order 42',
      'Which order is it about?',
    ]);
    const later = await graph().invoke('Did you fix my double charge?', { memory: { resource: 'ann', thread: 'c2' } });
    expect(later.results['billing']?.text).toBe('Order 42: the duplicate charge is reversed.');
    expect(embeddings.texts.filter((t) => t === 'Did you fix my double charge?')).toHaveLength(1);
    const other = await graph().invoke('Did you fix my double charge?', { memory: { resource: 'bob', thread: 'c1' } });
    expect(other.results['billing']?.text).toBe('Which order is it about?');
  });

  it('swarm: its members read it; the run is recorded once', async () => {
    const memory = new Memory();
    const swarm = () => new Swarm({ nodes: [answering('desk')], memory });
    await swarm().invoke('I was charged twice for order 42', { memory: { resource: 'ann', thread: 'c1' } });
    const later = await swarm().invoke('Did you fix my double charge?', { memory: { resource: 'ann', thread: 'c2' } });
    expect(later.status).toBe('completed');
    expect(String((later as { text?: string }).text)).toBe('Order 42: the duplicate charge is reversed.');
    expect(await memory.store.listMessages('ann')).toHaveLength(4);
    const other = await swarm().invoke('Did you fix my double charge?', { memory: { resource: 'bob' } });
    expect(String((other as { text?: string }).text)).toBe('Which order is it about?');
  });

  it('without a target the orchestrator and its nodes neither read nor write memory', async () => {
    const memory = new Memory();
    await new GraphBuilder().addNode(answering('a'), 'a').setMemory(memory).build().invoke('order 42');
    expect(await memory.store.listResources()).toEqual([]);
  });
});
