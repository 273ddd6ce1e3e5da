import { Agent, InMemorySessionRepository, RepositorySessionManager, tool, type JsonValue } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GraphBuilder, type GraphResult } from './index.js';

// A graph nobody watches runs its agents through invoke() (no events are made); one whose node events
// someone reads runs them through stream(). Both must run and store exactly the same.

const lookup = tool({
  name: 'lookup',
  description: 'looks an order up',
  inputSchema: z.object({ order: z.number() }),
  callback: ({ order }) => `order ${order}: shipped`,
});

function agent(name: string): Agent {
  const model = new ScriptedModel([
    { text: `${name} checks`, toolUses: [{ name: 'lookup', input: { order: 42 } }] },
    `${name}: done`,
  ]);
  return new Agent({ name, model, tools: [lookup] });
}

type Watch = 'nobody' | 'listener' | 'stream';

async function run(watch: Watch): Promise<{ result: GraphResult; stored: unknown; agents: Agent[] }> {
  const repository = new InMemorySessionRepository();
  const agents = ['triage', 'billing', 'shipping', 'summary'].map(agent);
  const [triage, billing, shipping, summary] = agents as [Agent, Agent, Agent, Agent];
  const graph = new GraphBuilder()
    .setId('desk')
    .setSessionManager(new RepositorySessionManager({ sessionId: 's', repository }))
    .addNode(triage)
    .addNode(billing)
    .addNode(shipping)
    .addNode(summary)
    .addEdge('triage', 'billing')
    .addEdge('triage', 'shipping')
    .addEdge(['billing', 'shipping'], 'summary')
    .build();
  let seen = 0;
  if (watch === 'listener') graph.on('nodeStream', () => void seen++);
  let result: GraphResult;
  if (watch === 'stream') {
    const gen = graph.stream('where is order 42?');
    let step = await gen.next();
    for (; !step.done; step = await gen.next()) if (step.value.type === 'nodeStream') seen++;
    result = step.value;
  } else {
    result = await graph.invoke('where is order 42?');
  }
  if (watch !== 'nobody') expect(seen).toBeGreaterThan(20);
  const stored = {
    nodes: await repository.readNodeEntries('s', 'desk'),
    transitions: (await repository.readTransitions('s', 'desk')).map(({ at: _at, ...t }) => t),
    messages: await Promise.all(
      agents.map(async (a) => (await repository.listMessages('s', `desk.${a.name}`)).map((m) => m.message)),
    ),
  };
  return { result, stored: timeless(stored), agents };
}

/** The JSON of `value` without what differs from run to run (times, durations). */
function timeless(value: unknown): JsonValue {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) =>
      ['at', 'created_at', 'updated_at'].includes(key) || /Ms$/.test(key) ? undefined : v,
    ),
  ) as JsonValue;
}

function comparable({ result, stored, agents }: Awaited<ReturnType<typeof run>>): unknown {
  return {
    status: result.status,
    order: result.executionOrder,
    texts: Object.fromEntries(Object.entries(result.results).map(([id, r]) => [id, [r.status, r.text]])),
    usage: result.accumulatedUsage,
    transitions: result.transitions.map(({ at: _at, ...t }) => t),
    histories: agents.map((a) => a.messages),
    stored,
  };
}

describe('a graph nobody watches', () => {
  it('runs and stores the same as one whose node events are read by a listener or through stream()', async () => {
    const quiet = comparable(await run('nobody'));
    expect(comparable(await run('listener'))).toEqual(quiet);
    expect(comparable(await run('stream'))).toEqual(quiet);
    expect((quiet as { status: string }).status).toBe('completed');
    const { stored } = quiet as { stored: { messages: unknown[][]; nodes: object } };
    expect(stored.messages.map((m) => m.length)).toEqual([4, 4, 4, 4]);
    expect(Object.keys(stored.nodes).filter((k) => !k.startsWith('run.'))).toHaveLength(4); // and the run's own entries (its shape)
    expect(JSON.stringify(quiet)).toContain('order 42: shipped');
  });
});
