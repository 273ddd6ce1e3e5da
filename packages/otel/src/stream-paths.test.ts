import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentStreamEvent, type MultiAgentStreamEvent } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { Swarm } from '@skein/swarm';
import { instrument } from './index.js';
import { harness } from './test-support/harness.js';

// Each stream event's `path` names the same place as the ancestry of the span of the agent that made it.

const agent = (name: string, script: ScriptedTurn[], tools: Agent[] = []): Agent =>
  new Agent({
    name,
    model: new ScriptedModel(script),
    tools: tools.map((t) => t.asTool()),
  });

/** The run-tree path of an `invoke_agent` span, from its ancestry: node ids and the names of agents used as tools. */
function spanPath(span: ReadableSpan, byId: ReadonlyMap<string, ReadableSpan>): string {
  const names: string[] = [];
  for (let s: ReadableSpan | undefined = span; s; s = byId.get(s.parentSpanContext?.spanId ?? '')) {
    const parent = byId.get(s.parentSpanContext?.spanId ?? '');
    if (s.name.startsWith('execute_node ')) names.push(s.name.slice('execute_node '.length));
    // An agent is named by its node when it is one; by its own name when used as a tool or outermost.
    else if (s.name.startsWith('invoke_agent ') && !parent?.name.startsWith('execute_node '))
      names.push(s.name.slice('invoke_agent '.length));
  }
  return names.reverse().join('/');
}

describe('stream paths and span ancestry', () => {
  it("match: every agent span's ancestry is the path of the events that agent made, and back", async () => {
    const h = harness();
    const ledger = agent('ledger', ['Entry 7 booked.']);
    const refund = agent('refund', [{ toolUses: [{ name: 'ledger', input: { input: 'book' } }] }, 'Booked.'], [ledger]);
    const billing = agent(
      'billing-agent',
      [{ toolUses: [{ name: 'refund', input: { input: '42' } }] }, 'Done.'],
      [refund],
    );
    const team = new Swarm({
      id: 'team',
      nodes: [agent('front', [{ toolUses: [{ name: 'transfer_to_back', input: {} }] }]), agent('back', ['Back.'])],
    });
    const graph = new GraphBuilder()
      .setId('desk')
      .addNode(billing, 'billing')
      .addNode(team, 'team')
      .addEdge('billing', 'team')
      .build();
    instrument(graph, {
      tracerProvider: h.tracerProvider,
      meterProvider: h.meterProvider,
    });
    const paths = new Set<string>();
    const note = (e: MultiAgentStreamEvent | AgentStreamEvent): void => {
      if (e.type === 'nodeStream' || e.type === 'toolStream') return note(e.event);
      if (e.type === 'messageAdded') paths.add(e.path); // made by an agent (not by an orchestrator)
    };
    for await (const e of graph.stream('refund order 42')) note(e);
    const spans = h.spans();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const agentSpans = spans.filter((s) => s.name.startsWith('invoke_agent '));
    expect(new Set(agentSpans.map((s) => spanPath(s, byId)))).toEqual(paths);
    expect(paths).toEqual(new Set(['billing', 'billing/refund', 'billing/refund/ledger', 'team/front', 'team/back']));
  });
});
