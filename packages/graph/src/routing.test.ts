import { Agent, messageText, type Model, type ModelRequest, type ModelStreamEvent } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { GraphBuilder, type GraphState } from './index.js';

const agent = (name: string, script: ScriptedTurn[]): Agent => new Agent({ name, model: new ScriptedModel(script) });
const lastInput = (a: Agent): string => messageText(a.messages.filter((m) => m.role === 'user').at(-1));

/** Wraps a model to count how many of its calls overlap. */
class OverlapMeter {
  active = 0;
  max = 0;
  wrap(inner: Model): Model {
    const meter = this;
    return {
      modelId: inner.modelId,
      async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
        meter.active++;
        meter.max = Math.max(meter.max, meter.active);
        try {
          yield* inner.stream(request);
        } finally {
          meter.active--;
        }
      },
    };
  }
}

function triageGraph(answer: string): {
  run: () => ReturnType<ReturnType<GraphBuilder['build']>['invoke']>;
  billing: Agent;
  refund: Agent;
} {
  const triage = agent('triage', [answer]);
  const billing = agent('billing', ['Billing handled it.']);
  const refund = agent('refund', ['Refund issued.']);
  const isBilling = (s: GraphState): boolean => s.results['triage']?.text.includes('BILLING') ?? false;
  const isRefund = (s: GraphState): boolean => s.results['triage']?.text.includes('REFUND') ?? false;
  const graph = new GraphBuilder()
    .addNode(triage)
    .addNode(billing)
    .addNode(refund)
    .addEdge('triage', 'billing', isBilling)
    .addEdge('triage', 'refund', isRefund)
    .build();
  return { run: () => graph.invoke('I was charged twice'), billing, refund };
}

describe('routing', () => {
  it('follows only the conditional edges that hold: triage -> billing | refund', async () => {
    const billingCase = triageGraph('Route: BILLING');
    const r1 = await billingCase.run();
    expect(r1.status).toBe('completed');
    expect(r1.executionOrder).toEqual(['triage', 'billing']);
    expect(billingCase.refund.messages).toHaveLength(0);
    expect(r1.transitions.map((t) => [t.from, t.to, t.kind])).toEqual([
      [null, 'triage', 'start'],
      ['triage', 'billing', 'edge'],
      ['billing', null, 'complete'],
    ]);
    expect(r1.transitions[1]?.reason).toBe('triage -> billing (condition isBilling held)');

    const refundCase = triageGraph('Route: REFUND');
    const r2 = await refundCase.run();
    expect(r2.executionOrder).toEqual(['triage', 'refund']);
    expect(r2.results['refund']?.text).toBe('Refund issued.');
    expect(r2.completedCount).toBe(2);
    expect(r2.totalNodes).toBe(3);
  });

  it("gives a node the original task plus its sources' outputs, labelled by node id", async () => {
    const { run, billing } = triageGraph('Route: BILLING');
    await run();
    expect(lastInput(billing)).toBe(
      'Original Task: I was charged twice\nInputs from previous nodes:\nFrom triage:  - triage: Route: BILLING',
    );
  });

  it('a join waits for all its sources and receives every output', async () => {
    const order: string[] = [];
    const a = agent('a', [{ text: 'from a', delayMs: 30 }]);
    const b = agent('b', ['from b']);
    const c = agent('c', [(req) => (order.push(`c sees ${messageText(req.messages.at(-1))}`), 'joined')]);
    const graph = new GraphBuilder().addNode(a).addNode(b).addNode(c).addEdge(['a', 'b'], 'c').build();
    const result = await graph.invoke('go');
    expect(result.executionOrder).toEqual(['b', 'a', 'c']);
    expect(result.results['c']?.executionCount).toBe(1);
    expect(order[0]).toContain('From a:  - a: from a');
    expect(order[0]).toContain('From b:  - b: from b');
    expect(result.transitions.filter((t) => t.kind === 'join').map((t) => t.from)).toEqual(['a']);
  });

  it('a node with two plain incoming edges runs once per edge that fires (use a join to wait for both)', async () => {
    const a = agent('a', [{ text: 'A', delayMs: 30 }]);
    const b = agent('b', ['B']);
    const c = agent('c', ['c1', 'c2']);
    const result = await new GraphBuilder()
      .addNode(a)
      .addNode(b)
      .addNode(c)
      .addEdge('a', 'c')
      .addEdge('b', 'c')
      .build()
      .invoke('go');
    expect(result.executionOrder).toEqual(['b', 'c', 'a', 'c']);
    expect(result.results['c']?.executionCount).toBe(2);
  });

  it('starts ready nodes in insertion order (ties), so runs are reproducible', async () => {
    const started: string[] = [];
    const names = ['w3', 'w1', 'w2'];
    const builder = new GraphBuilder().setMaxConcurrency(1).addNode(agent('root', ['r']));
    for (const n of names) builder.addNode(agent(n, [() => (started.push(n), n)])).addEdge('root', n);
    const result = await builder.build().invoke('go');
    expect(started).toEqual(names);
    expect(result.executionOrder).toEqual(['root', ...names]);
  });

  it('runs the 32 branches of a 1 -> 32 -> 1 fan-out in parallel, up to maxConcurrency', async () => {
    for (const limit of [8, Infinity]) {
      const meter = new OverlapMeter();
      const node = (name: string): Agent =>
        new Agent({ name, model: meter.wrap(new ScriptedModel([{ text: name, delayMs: 20 }])) });
      const builder = new GraphBuilder().setMaxConcurrency(limit).addNode(node('fanout')).addNode(node('fanin'));
      const workers = Array.from({ length: 32 }, (_, i) => `w${i}`);
      for (const w of workers) builder.addNode(node(w)).addEdge('fanout', w);
      builder.addEdge(workers, 'fanin');
      const result = await builder.build().invoke('go');
      expect(result.status).toBe('completed');
      expect(result.executionCount).toBe(34);
      expect(result.results['fanin']?.executionCount).toBe(1);
      expect(meter.max).toBe(limit === Infinity ? 32 : limit);
    }
  });

  it('starts a ready node as soon as it is ready, not in lock-step batches', async () => {
    const started: string[] = [];
    const mk = (name: string, delayMs: number): Agent =>
      agent(name, [() => (started.push(name), { text: name, delayMs })]);
    const graph = new GraphBuilder()
      .addNode(mk('slow', 100))
      .addNode(mk('fast', 1))
      .addNode(mk('afterFast', 1))
      .addEdge('fast', 'afterFast')
      .build();
    const result = await graph.invoke('go');
    expect(result.executionOrder).toEqual(['fast', 'afterFast', 'slow']);
  });

  it('sums usage and counts', async () => {
    const a = agent('a', [{ text: 'x', usage: { inputTokens: 3, outputTokens: 4 } }]);
    const b = agent('b', [{ text: 'y', usage: { inputTokens: 5, outputTokens: 6 } }]);
    const result = await new GraphBuilder().addNode(a).addNode(b).addEdge('a', 'b').build().invoke('go');
    expect(result.accumulatedUsage).toMatchObject({ inputTokens: 8, outputTokens: 10, totalTokens: 18 });
    expect(result.executionTimeMs).toBeGreaterThan(0);
  });
});
