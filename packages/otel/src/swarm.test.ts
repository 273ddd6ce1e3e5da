import { describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { Swarm } from '@skein/swarm';
import { instrument } from './index.js';
import { harness, only, total, tree } from './testing/harness.js';

describe('an instrumented swarm', () => {
  it('has a node span per turn below the run, agents below their node, and each handoff as a span event', async () => {
    const h = harness();
    const triage = new Agent({ name: 'triage', model: new ScriptedModel([{ toolUses: [{ name: 'transfer_to_billing', input: {} }] }]) });
    const billing = new Agent({ name: 'billing', model: new ScriptedModel(['Refunded.']) });
    const swarm = new Swarm({ id: 'desk', nodes: [triage, billing] });
    instrument(swarm, { tracerProvider: h.tracerProvider, meterProvider: h.meterProvider });
    const result = await swarm.invoke('charged twice');
    expect(result.status).toBe('completed');
    const spans = h.spans();
    expect(tree(spans)).toBe(
      ['invoke_workflow desk', '  execute_node billing', '    invoke_agent billing', '      chat scripted', '  execute_node triage', '    invoke_agent triage', '      chat scripted'].join('\n'),
    );
    expect(only(spans, 'invoke_agent triage').attributes['gen_ai.response.finish_reasons']).toEqual(['handoff']);
    const run = only(spans, 'invoke_workflow desk');
    expect(run.attributes).toMatchObject({ 'skein.orchestrator.kind': 'swarm', 'skein.run.status': 'completed' });
    const handoffs = run.events.filter((e) => e.name === 'skein.handoff').map((e) => `${String(e.attributes?.['skein.transition.from'])}->${String(e.attributes?.['skein.transition.to'])}`);
    expect(handoffs).toEqual(['triage->billing']);
    const metrics = await h.metrics();
    expect(total(metrics.get('skein.node.executions'), { 'gen_ai.workflow.name': 'desk' })).toBe(2);
  });
});
