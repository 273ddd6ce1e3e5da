import { describe, expect, it, vi } from 'vitest';
import { Agent, type AgentStreamEvent, type MultiAgentStreamEvent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { Swarm } from '@skein/swarm';
import { GraphBuilder } from '@skein/graph';

// One stream for the run tree: a graph's stream carries what its nodes' agents-as-tools and nested
// orchestrators do, each event with its path.

type Event = MultiAgentStreamEvent | AgentStreamEvent;
const leaf = (e: Event): Event => (e.type === 'nodeStream' || e.type === 'toolStream' ? leaf(e.event) : e);

function refund(): Agent {
  return new Agent({
    name: 'refund',
    model: new ScriptedModel(['Refund of 30 EUR is due.']),
  });
}

function desk(nested: Agent): ReturnType<GraphBuilder['build']> {
  const billing = new Agent({
    name: 'billing-agent',
    model: new ScriptedModel([{ toolUses: [{ name: 'refund', input: { input: 'order 42' } }] }, 'On its way.']),
    tools: [nested.asTool()],
  });
  const members = new Swarm({
    id: 'team',
    nodes: [
      new Agent({
        name: 'front',
        model: new ScriptedModel([{ toolUses: [{ name: 'transfer_to_back', input: {} }] }]),
      }),
      new Agent({ name: 'back', model: new ScriptedModel(['Back here.']) }),
    ],
  });
  return new GraphBuilder().addNode(billing, 'billing').addNode(members, 'team').addEdge('billing', 'team').build();
}

async function collect(gen: AsyncGenerator<MultiAgentStreamEvent, unknown>): Promise<MultiAgentStreamEvent[]> {
  const events: MultiAgentStreamEvent[] = [];
  for await (const e of gen) events.push(e);
  return events;
}

describe('a graph stream over the run tree', () => {
  it('carries every level with its path and depth: nodes, agents used as tools, nested swarm members', async () => {
    const events = await collect(desk(refund()).stream('refund order 42'));
    const places = new Set(events.map((e) => `${e.path}:${e.depth}`));
    expect(places).toEqual(new Set([':0', 'billing:0', 'billing/refund:1', 'team:0', 'team/front:1', 'team/back:1']));
    for (const e of events) expect(leaf(e).path).toBe(e.path);
    const text = (path: string): string =>
      events
        .filter((e) => e.path === path)
        .map(leaf)
        .map((e) => (e.type === 'textDelta' ? e.data : ''))
        .join('');
    expect(text('billing/refund')).toBe('Refund of 30 EUR is due.');
    expect(text('billing')).toBe('On its way.');
    expect(text('team/back')).toBe('Back here.');
    // The nested swarm's own node starts and stops bracket its members' events.
    const team = events.filter((e) => e.path.startsWith('team'));
    expect(leaf(team[0] as Event).type).toBe('transition');
    expect(
      events.filter((e) => e.path === '' && e.type === 'nodeStart').map((e) => e.type === 'nodeStart' && e.nodeId),
    ).toEqual(['billing', 'team']);
  });

  it('`depth: 0` keeps the nodes own events and streams no agent used as a tool', async () => {
    const nested = refund();
    const invoke = vi.spyOn(nested, 'invoke');
    const events = await collect(desk(nested).stream('go', { depth: 0 }));
    expect(events.filter((e) => e.depth > 0)).toEqual([]);
    expect(events.some((e) => e.path === 'billing')).toBe(true);
    expect(invoke).toHaveBeenCalledTimes(1);
  });

  it('invoke() with nobody listening hands no nested agent a place in a stream', async () => {
    const nested = refund();
    const heard: string[] = [];
    nested.on('textDelta', (e) => void heard.push(e.path));
    expect((await desk(nested).invoke('go')).status).toBe('completed');
    // The nested agent's own listeners hear it at its own name: nobody handed it a place in a stream.
    expect(new Set(heard)).toEqual(new Set(['refund']));
  });

  it('an outermost swarm streams its members and the agents they use as tools at their paths', async () => {
    const front = new Agent({
      name: 'front',
      model: new ScriptedModel([
        { toolUses: [{ name: 'refund', input: { input: 'order 42' } }] },
        { toolUses: [{ name: 'transfer_to_back', input: {} }] },
      ]),
      tools: [refund().asTool()],
    });
    const swarm = new Swarm({
      nodes: [front, new Agent({ name: 'back', model: new ScriptedModel(['Done.']) })],
    });
    const events = await collect(swarm.stream('go'));
    expect(new Set(events.map((e) => `${e.path}:${e.depth}`))).toEqual(
      new Set([':0', 'front:0', 'front/refund:1', 'back:0']),
    );
  });
});
