import {
  Agent,
  InMemorySessionRepository,
  RepositorySessionManager,
  tool,
  type JsonObject,
  type ModelRequest,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GraphBuilder, type Graph, type GraphState } from './index.js';
import { DyingRepository, fastAgent, seeded, type Latency } from './test-support/testing-models.js';

// Joins under every schedule: nodes that finish in the same tick (zero-latency models), one
// macrotask apart, or at seeded random times. The executed set must be the graph's expected set.

const LATENCIES: Latency[] = ['zero', 'tick', { seed: 7, maxMs: 3 }];
const label = (l: Latency): string => (typeof l === 'string' ? l : `random(seed ${l.seed})`);

function build(latency: Latency, shape: (b: GraphBuilder, add: (id: string, text?: string) => void) => void): Graph {
  const random = typeof latency === 'object' ? seeded(latency.seed) : undefined;
  const b = new GraphBuilder();
  shape(b, (id, text) => void b.addNode(fastAgent(id, latency, random, text), id));
  return b.build();
}

const sorted = (ids: readonly string[]): string[] => [...ids].sort();

describe.each(LATENCIES.map((l) => [label(l), l] as const))('joins with %s models', (_name, latency) => {
  it('fire when both sources finish together (the reported repro)', async () => {
    const graph = build(latency, (b, add) => {
      for (const id of ['a', 'b', 'c']) add(id);
      b.addEdge(['a', 'b'], 'c').setEntryPoint('a').setEntryPoint('b');
    });
    const result = await graph.invoke('go');
    expect(result.status).toBe('completed');
    expect(sorted(result.executionOrder)).toEqual(['a', 'b', 'c']);
    expect(result.executionOrder.at(-1)).toBe('c');
  });

  it('fire after a 1 -> 32 -> 1 fan-out', async () => {
    const workers = Array.from({ length: 32 }, (_, i) => `w${i}`);
    const graph = build(latency, (b, add) => {
      add('source');
      add('sink');
      for (const w of workers) {
        add(w);
        b.addEdge('source', w);
      }
      b.addEdge(workers, 'sink');
    });
    const result = await graph.invoke('go');
    expect(result.status).toBe('completed');
    expect(sorted(result.executionOrder)).toEqual(sorted(['source', 'sink', ...workers]));
    expect(result.executionOrder.at(-1)).toBe('sink');
  });

  it('fire when nested', async () => {
    const graph = build(latency, (b, add) => {
      for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) add(id);
      b.addEdge('a', 'b').addEdge('a', 'c').addEdge(['b', 'c'], 'd').addEdge('a', 'e').addEdge(['d', 'e'], 'f');
    });
    const result = await graph.invoke('go');
    expect(result.status).toBe('completed');
    expect(sorted(result.executionOrder)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(result.executionOrder.at(-1)).toBe('f');
  });

  it('fire with conditions, and a join whose source was routed around does not fail the run', async () => {
    for (const route of ['billing', 'refund']) {
      const graph = build(latency, (b, add) => {
        add('triage', `ROUTE ${route}`);
        for (const id of ['billing', 'refund', 'notes', 'summary']) add(id);
        const to =
          (topic: string) =>
          (s: GraphState): boolean =>
            s.results['triage']?.text === `ROUTE ${topic}`;
        b.addEdge('triage', 'billing', to('billing'))
          .addEdge('triage', 'refund', to('refund'))
          .addEdge('triage', 'notes');
        b.addEdge(['notes', 'billing'], 'summary').addEdge(['notes', 'refund'], 'summary');
      });
      const result = await graph.invoke('go');
      expect(result.status, route).toBe('completed');
      expect(sorted(result.executionOrder), route).toEqual(sorted(['triage', route, 'notes', 'summary']));
    }
  });
});

/**
 * Random DAGs (seeded): each node has either one plain incoming edge or one join of all its
 * predecessors, so every reachable node runs exactly once whatever the schedule.
 */
function randomDag(seed: number): { edges: { from: string[]; to: string }[]; nodes: string[] } {
  const random = seeded(seed);
  const size = 4 + Math.floor(random() * 10);
  const nodes = Array.from({ length: size }, (_, i) => `n${i}`);
  const edges: { from: string[]; to: string }[] = [];
  for (let i = 1; i < size; i++) {
    const earlier = nodes.slice(0, i);
    const picks = earlier.filter(() => random() < 0.35);
    const from = picks.length > 0 ? picks : [earlier[Math.floor(random() * earlier.length)] as string];
    edges.push({ from, to: nodes[i] as string });
  }
  return { edges, nodes };
}

describe('schedule fuzz', () => {
  const seeds = Number(process.env['SKEIN_FUZZ_SEEDS'] ?? 40);
  it(`runs every node of ${seeds} random DAGs exactly once under zero, one-tick and random latencies`, async () => {
    for (let seed = 1; seed <= seeds; seed++) {
      const dag = randomDag(seed);
      for (const latency of [...LATENCIES.slice(0, 2), { seed, maxMs: 2 }] as Latency[]) {
        const graph = build(latency, (b, add) => {
          for (const n of dag.nodes) add(n);
          for (const e of dag.edges) b.addEdge(e.from.length === 1 ? (e.from[0] as string) : e.from, e.to);
          b.setEntryPoint('n0');
        });
        const result = await graph.invoke('go');
        const where = `seed ${seed}, ${label(latency)}: ${JSON.stringify(dag.edges)}`;
        expect(result.status, where).toBe('completed');
        expect(sorted(result.executionOrder), where).toEqual(sorted(dag.nodes));
      }
    }
  }, 120_000);
});

describe('a join across a crash', () => {
  it('fires once after a resume when the process died between its two arrivals', async () => {
    const repository = new DyingRepository();
    const session = (): RepositorySessionManager => new RepositorySessionManager({ sessionId: 's', repository });
    const graph = (): Graph => {
      const b = new GraphBuilder().setId('g').setSessionManager(session());
      for (const id of ['a', 'b', 'c']) b.addNode(fastAgent(id, 'tick'), id);
      return b.addEdge('a', 'b').addEdge(['a', 'b'], 'c').setEntryPoint('a').build();
    };
    // Dies when b's result is written: a has arrived at the join, b has not.
    repository.dieAt = (w) => w.kind === 'node' && w.nodeId === 'b';
    await expect(graph().invoke('go')).rejects.toThrow('the process died');
    repository.restart();
    const resumed = await graph().invoke('ignored while resuming');
    expect(resumed.status).toBe('completed');
    expect(resumed.executionOrder).toEqual(['a', 'b', 'c']);
    expect(resumed.results['c']?.executionCount).toBe(1);
    expect(resumed.results['a']?.executionCount).toBe(1);
  });
});

describe('a join that lost an arrival', () => {
  // The lost update of the original bug, recreated in a stored run: a completed, and its arrival at
  // the join is gone from the stored progress while b waits for an approval.
  const refund = tool({
    name: 'refund',
    description: 'Refunds.',
    inputSchema: z.object({ amount: z.number() }),
    needsApproval: true,
    callback: () => 'refunded',
  });
  const refundTurn = (request: ModelRequest): string | { toolUses: { name: string; input: JsonObject }[] } =>
    request.messages.at(-1)?.content.some((b) => 'toolResult' in b)
      ? 'Refunded.'
      : { toolUses: [{ name: 'refund', input: { amount: 80 } }] };
  const graph = (repository: InMemorySessionRepository): Graph =>
    new GraphBuilder()
      .addNode(new Agent({ name: 'a', model: new ScriptedModel(['a done'], { loop: true }) }), 'a')
      .addNode(new Agent({ name: 'b', model: new ScriptedModel([refundTurn], { loop: true }), tools: [refund] }), 'b')
      .addNode(new Agent({ name: 'c', model: new ScriptedModel(['c done'], { loop: true }) }), 'c')
      .addEdge(['a', 'b'], 'c')
      .setEntryPoint('a')
      .setEntryPoint('b')
      .setSessionManager(new RepositorySessionManager({ sessionId: 's', repository }))
      .build();

  it('fails the run naming the join instead of saying completed, even when the lost source finished first', async () => {
    const repository = new InMemorySessionRepository();
    const paused = await graph(repository).invoke('go');
    expect(paused.status).toBe('interrupted');
    const stored = (await repository.readMultiAgent('s', 'graph'))!;
    expect(Object.values(stored.state['joins'] as JsonObject)).toEqual([['a']]);
    await repository.updateMultiAgent('s', { ...stored, state: { ...stored.state, joins: {} } });
    const interruptId = paused.interrupts![0]!.id;
    const result = await graph(repository).invoke([
      { interruptResponse: { interruptId, response: { approved: true } } },
    ]);
    expect(result.status).toBe('failed');
    expect(result.failureReason).toMatch(/join of a, b -> c \(a completed but its arrival was not recorded\)/);
    expect(result.executionOrder).not.toContain('c');
  });
});
