import {
  Agent,
  MultiAgentBudgetWarningEvent,
  tool,
  toolResultsOf,
  toolUsesOf,
  type Message,
  type MultiAgentStreamEvent,
  type UsageTree,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GraphBuilder, type GraphResult } from './index.js';

const step = tool({
  name: 'step',
  description: 'one step',
  inputSchema: z.object({ n: z.number() }),
  callback: ({ n }) => `step ${n}`,
});
/** Each call: 50 input + 50 output tokens, after `delayMs`. */
const usage = { inputTokens: 50, outputTokens: 50 };

function worker(name: string, calls: number, delayMs = 15): { agent: Agent; model: ScriptedModel } {
  const turns: ScriptedTurn[] = [
    ...Array.from({ length: calls }, (_, i) => ({
      toolUses: [{ name: 'step', input: { n: i } }],
      usage,
      delayMs,
    })),
    { text: `${name} done`, usage, delayMs },
  ];
  const model = new ScriptedModel(turns);
  return {
    agent: new Agent({ name, model, tools: [step], retryStrategy: null }),
    model,
  };
}

function paired(messages: readonly Message[]): boolean {
  const results = new Set(messages.flatMap((m) => toolResultsOf(m).map((r) => r.toolUseId)));
  return messages.flatMap((m) => toolUsesOf(m)).every((u) => results.has(u.toolUseId));
}

function fanOut(
  branches: number,
  calls: number,
): {
  build: () => ReturnType<GraphBuilder['build']>;
  workers: ReturnType<typeof worker>[];
} {
  const start = worker('start', 0, 1);
  const workers = Array.from({ length: branches }, (_, i) => worker(`b${i}`, calls));
  const builder = new GraphBuilder().addNode(start.agent);
  for (const w of workers) builder.addNode(w.agent).addEdge('start', w.agent.name);
  return { build: () => builder.build(), workers: [start, ...workers] };
}

const sum = (tree: UsageTree): number => tree.children.reduce((n, c) => n + c.spend.totalTokens, 0);

describe('a budget on a graph', () => {
  it('reserves before each model call, so a parallel fan-out never exceeds modelCalls', async () => {
    const { build, workers } = fanOut(4, 5);
    const result = await build().invoke('go', { budget: { modelCalls: 9 } });
    expect(result.status).toBe('budgetExceeded');
    expect(result.budgetExceeded).toMatchObject({
      limit: 'modelCalls',
      max: 9,
      spent: 9,
    });
    // 4 branches in parallel, each reserving a call before it starts: exactly 9 calls, never 9 + 3.
    expect(workers.reduce((n, w) => n + w.model.callCount, 0)).toBe(9);
    for (const w of workers) expect(paired(w.agent.messages)).toBe(true);
  });

  it('overshoots a token limit by at most one call per parallel branch, and says so per node', async () => {
    const branches = 4;
    const { build, workers } = fanOut(branches, 20);
    const max = 1000;
    const result = await build().invoke('go', {
      budget: { totalTokens: max, reserveTokens: 50 },
    });
    expect(result.status).toBe('budgetExceeded');
    const spent = workers.reduce((n, w) => n + w.model.callCount * 100, 0);
    expect(result.usage?.spend.totalTokens).toBe(spent);
    expect(spent).toBeGreaterThanOrEqual(max);
    expect(spent).toBeLessThanOrEqual(max + branches * 100); // the documented bound
    expect(result.failureReason).toMatch(/totalTokens budget of 1000/);
    // The tree: one child per node, each with its agent; the nodes add up to the total, counted once.
    const tree = result.usage as UsageTree;
    expect(tree).toMatchObject({ kind: 'graph' });
    expect(tree.children.map((c) => c.name).sort()).toEqual(['b0', 'b1', 'b2', 'b3', 'start']);
    expect(sum(tree)).toBe(tree.spend.totalTokens);
    for (const node of tree.children)
      expect(node.children[0]).toMatchObject({
        kind: 'agent',
        name: node.name,
        spend: { totalTokens: node.spend.totalTokens },
      });
    for (const w of workers) expect(paired(w.agent.messages)).toBe(true);
    expect(Object.values(result.results).some((r) => r.status === 'budgetExceeded')).toBe(true);
  });

  it('counts node executions and stops before the next node; warns on the way', async () => {
    const agents = ['a', 'b', 'c', 'd', 'e'].map(
      (n) => new Agent({ name: n, model: new ScriptedModel([`${n} says hi`]) }),
    );
    const builder = new GraphBuilder();
    for (const a of agents) builder.addNode(a);
    for (let i = 1; i < agents.length; i++) builder.addEdge(agents[i - 1]!.name, agents[i]!.name);
    const graph = builder.build();
    const hooked: string[] = [];
    graph.hooks.addCallback(
      MultiAgentBudgetWarningEvent,
      (e) => void hooked.push(`${e.warning.limit} ${e.warning.spent}/${e.warning.max}`),
    );
    const events: MultiAgentStreamEvent[] = [];
    const gen = graph.stream('go', {
      budget: { nodeExecutions: 4, warnAt: 0.75 },
    });
    let next = await gen.next();
    for (; !next.done; next = await gen.next()) events.push(next.value);
    const result: GraphResult = next.value;
    expect(result.status).toBe('budgetExceeded');
    expect(result.executionOrder).toEqual(['a', 'b', 'c', 'd']);
    expect(result.budgetExceeded).toEqual({
      limit: 'nodeExecutions',
      max: 4,
      spent: 4,
    });
    expect(result.transitions.at(-1)).toMatchObject({
      kind: 'budget',
      to: null,
    });
    expect(hooked).toEqual(['nodeExecutions 3/4']);
    expect(events.filter((e) => e.type === 'budgetWarning')).toEqual([
      {
        type: 'budgetWarning',
        nodeId: 'c',
        warning: { limit: 'nodeExecutions', max: 4, spent: 3, fraction: 0.75 },
        path: '',
        depth: 0,
      },
    ]);
  });

  it('does nothing different without a budget', async () => {
    const { build } = fanOut(2, 1);
    const result = await build().invoke('go');
    expect(result.status).toBe('completed');
    expect(result.usage).toBeUndefined();
  });
});

describe('setMaxNodeExecutions with a budget', () => {
  it('holds for a fan-out whose branches all start in one tick (the count is checked again after the budget is asked)', async () => {
    const { workers } = fanOut(4, 0);
    const builder = new GraphBuilder().addNode(workers[0]!.agent);
    for (const w of workers.slice(1)) builder.addNode(w.agent).addEdge('start', w.agent.name);
    const result = await builder
      .setMaxNodeExecutions(3)
      .build()
      .invoke('go', { budget: { totalTokens: 1_000_000 } });
    expect(result.status).toBe('failed');
    expect(result.failureReason).toMatch(/Reached the limit of 3 node executions/);
    expect(result.executionCount).toBeLessThanOrEqual(3);
    expect(workers.filter((w) => w.model.callCount > 0).length).toBeLessThanOrEqual(3); // a fourth node never started
  });
});
