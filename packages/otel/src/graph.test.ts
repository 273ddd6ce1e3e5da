import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { Agent, BeforeNodeCallEvent, InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder, type Graph } from '@skein/graph';
import { Swarm } from '@skein/swarm';
import { instrument } from './index.js';
import { harness, only, recordings, total, tree } from './test-support/harness.js';

const agent = (name: string, script: ScriptedTurn[]): Agent => new Agent({ name, model: new ScriptedModel(script) });

function supportGraph(): Graph {
  // billing and the desk swarm run in parallel after triage; their model calls interleave.
  const slow = (text: string): ScriptedTurn => ({ text: text.split(''), chunkDelayMs: 2 });
  const desk = new Swarm({
    id: 'desk',
    nodes: [
      agent('refunds', [{ toolUses: [{ name: 'transfer_to_escalation', input: {} }] }]),
      agent('escalation', [slow('Escalated.')]),
    ],
  });
  return new GraphBuilder()
    .setId('support')
    .addNode(agent('triage', ['billing and refund']), 'triage')
    .addNode(agent('billing', [slow('Charged once.')]), 'billing')
    .addNode(desk, 'desk')
    .addEdge('triage', 'billing')
    .addEdge('triage', 'desk')
    .build();
}

describe('an instrumented graph', () => {
  it('has a workflow span, a span per node execution, and each node run below its own node span, also in parallel and nested', async () => {
    const h = harness();
    const graph = supportGraph();
    instrument(graph, { tracerProvider: h.tracerProvider, meterProvider: h.meterProvider, conversationId: 'case-7' });
    const result = await graph.invoke('My card was charged twice');
    expect(result.status).toBe('completed');
    const spans = h.spans();
    expect(tree(spans)).toBe(
      [
        'invoke_workflow support',
        '  execute_node billing',
        '    invoke_agent billing',
        '      chat scripted',
        '  execute_node desk',
        '    invoke_workflow desk',
        '      execute_node escalation',
        '        invoke_agent escalation',
        '          chat scripted',
        '      execute_node refunds',
        '        invoke_agent refunds',
        '          chat scripted',
        '  execute_node triage',
        '    invoke_agent triage',
        '      chat scripted',
      ].join('\n'),
    );
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    // the two branches really ran at the same time
    const ms = (t: readonly [number, number]): number => t[0] * 1e3 + t[1] / 1e6;
    const [billing, desk] = [only(spans, 'execute_node billing'), only(spans, 'execute_node desk')];
    expect(ms(billing.startTime) < ms(desk.endTime) && ms(desk.startTime) < ms(billing.endTime)).toBe(true);
    for (const s of spans) expect(s.attributes['gen_ai.conversation.id'], s.name).toBe('case-7');
    const root = only(spans, 'invoke_workflow support');
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': 'support',
      'skein.orchestrator.kind': 'graph',
      'skein.run.status': 'completed',
    });
    expect(root.attributes['gen_ai.usage.input_tokens']).toBe(40);
    expect(root.events.map((e) => `${e.name} ${String(e.attributes?.['skein.transition.kind'])}`)).toEqual([
      'skein.transition start',
      'skein.transition edge',
      'skein.transition edge',
      'skein.transition complete',
    ]);
    const nested = only(spans, 'invoke_workflow desk');
    expect(
      nested.events.some((e) => e.name === 'skein.handoff' && e.attributes?.['skein.transition.to'] === 'escalation'),
    ).toBe(true);
    expect(only(spans, 'execute_node billing').attributes).toMatchObject({
      'skein.node.id': 'billing',
      'skein.node.status': 'completed',
      'skein.node.execution': 1,
    });

    const metrics = await h.metrics();
    expect(total(metrics.get('skein.node.executions'), { 'gen_ai.workflow.name': 'support' })).toBe(3);
    expect(
      total(metrics.get('skein.node.executions'), { 'gen_ai.workflow.name': 'desk', 'skein.node.status': 'completed' }),
    ).toBe(2);
    expect(recordings(metrics.get('skein.node.duration'))).toBe(5);
    expect(
      recordings(metrics.get('gen_ai.client.operation.duration'), { 'gen_ai.operation.name': 'invoke_workflow' }),
    ).toBe(2);
  });

  it('names runs invoke_graph / invoke_swarm when asked', async () => {
    const h = harness();
    const graph = supportGraph();
    instrument(graph, { tracerProvider: h.tracerProvider, meterProvider: h.meterProvider, workflowSpanName: 'kind' });
    await graph.invoke('go');
    expect(
      h
        .spans()
        .map((s) => s.name)
        .filter((n) => n.startsWith('invoke_') && !n.startsWith('invoke_agent'))
        .sort(),
    ).toEqual(['invoke_graph support', 'invoke_swarm desk']);
  });

  it('marks a failed node and a failed run as errors', async () => {
    const h = harness();
    const graph = new GraphBuilder()
      .setId('g')
      .addNode(agent('a', [{ error: new Error('model exploded') }]), 'a')
      .build();
    instrument(graph, { tracerProvider: h.tracerProvider, meterProvider: h.meterProvider });
    const result = await graph.invoke('go');
    expect(result.status).toBe('failed');
    const node = only(h.spans(), 'execute_node a');
    expect(node.status.code).toBe(SpanStatusCode.ERROR);
    expect(node.status.message).toContain('model exploded');
    expect(only(h.spans(), 'invoke_agent a').status.code).toBe(SpanStatusCode.ERROR);
    expect(only(h.spans(), 'invoke_workflow g').status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('a run resumed by another process', () => {
  function pipeline(repository: InMemorySessionRepository, b: ScriptedTurn[]): Graph {
    return new GraphBuilder()
      .setId('pipeline')
      .setSessionManager(new RepositorySessionManager({ sessionId: 'sess', repository }))
      .addNode(agent('a', ['A']), 'a')
      .addNode(agent('b', b), 'b')
      .addEdge('a', 'b')
      .build();
  }

  it('links to the original run: the original trace id comes from its start transition, the resumed span links to it', async () => {
    const repository = new InMemorySessionRepository();
    // process 1: the run stops while b runs
    const one = harness();
    const first = pipeline(repository, [{ text: 'never', delayMs: 10_000 }]);
    const controller = new AbortController();
    first.hooks.addCallback(BeforeNodeCallEvent, (e) => {
      if (e.nodeId === 'b') setTimeout(() => controller.abort(), 10);
    });
    instrument(first, { tracerProvider: one.tracerProvider, meterProvider: one.meterProvider });
    expect((await first.invoke('task', { signal: controller.signal })).status).toBe('interrupted');
    const original = only(one.spans(), 'invoke_workflow pipeline');
    const runId = original.attributes['skein.run.id'];
    expect(runId).toBe(original.spanContext().traceId);

    // process 2: same graph id and session, its own tracer provider
    const two = harness();
    const second = pipeline(repository, ['B']);
    instrument(second, { tracerProvider: two.tracerProvider, meterProvider: two.meterProvider });
    expect((await second.invoke('task')).status).toBe('completed');
    const resumed = only(two.spans(), 'invoke_workflow pipeline');
    expect(resumed.spanContext().traceId).not.toBe(runId);
    expect(resumed.links.map((l) => l.context.traceId)).toEqual([runId]);
    expect(resumed.attributes['skein.run.id']).toBe(runId);
    expect(resumed.events.find((e) => e.name === 'skein.resume')?.attributes).toMatchObject({
      'skein.transition.to': 'b',
    });
    expect(tree(two.spans())).toBe(
      ['invoke_workflow pipeline', '  execute_node b', '    invoke_agent b', '      chat scripted'].join('\n'),
    );
  });
});
