import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, tool } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { Swarm } from '@skein/swarm';
import { instrument } from './index.js';
import { harness, only, total, tree } from './test-support/harness.js';

describe('an instrumented swarm', () => {
  it('has a node span per turn below the run, agents below their node, and each handoff as a span event', async () => {
    const h = harness();
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel([{ toolUses: [{ name: 'transfer_to_billing', input: {} }] }]),
    });
    const billing = new Agent({ name: 'billing', model: new ScriptedModel(['Refunded.']) });
    const swarm = new Swarm({ id: 'desk', nodes: [triage, billing] });
    instrument(swarm, { tracerProvider: h.tracerProvider, meterProvider: h.meterProvider });
    const result = await swarm.invoke('charged twice');
    expect(result.status).toBe('completed');
    const spans = h.spans();
    expect(tree(spans)).toBe(
      [
        'invoke_workflow desk',
        '  execute_node billing',
        '    invoke_agent billing',
        '      chat scripted',
        '  execute_node triage',
        '    invoke_agent triage',
        '      chat scripted',
      ].join('\n'),
    );
    expect(only(spans, 'invoke_agent triage').attributes['gen_ai.response.finish_reasons']).toEqual(['handoff']);
    const run = only(spans, 'invoke_workflow desk');
    expect(run.attributes).toMatchObject({ 'skein.orchestrator.kind': 'swarm', 'skein.run.status': 'completed' });
    const handoffs = run.events
      .filter((e) => e.name === 'skein.handoff')
      .map(
        (e) => `${String(e.attributes?.['skein.transition.from'])}->${String(e.attributes?.['skein.transition.to'])}`,
      );
    expect(handoffs).toEqual(['triage->billing']);
    const metrics = await h.metrics();
    expect(total(metrics.get('skein.node.executions'), { 'gen_ai.workflow.name': 'desk' })).toBe(2);
  });

  it('says on the handoff event what the receiver got: history sizes before and after the filter, shared keys, what else the turn did', async () => {
    const h = harness();
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel([
        {
          toolUses: [
            { name: 'lookup', input: {} },
            { name: 'transfer_to_billing', input: { message: 'charged twice', context: { orderId: '42' } } },
            { name: 'transfer_to_refund', input: {} },
          ],
        },
      ]),
      tools: [
        tool({ name: 'lookup', description: 'Looks up.', inputSchema: z.object({}), callback: () => 'order 42' }),
      ],
    });
    const billing = new Agent({ name: 'billing', model: new ScriptedModel(['Refunded.']) });
    const refund = new Agent({ name: 'refund', model: new ScriptedModel(['never']) });
    const swarm = new Swarm({ id: 'desk', nodes: [triage, billing, refund] });
    instrument(swarm, { tracerProvider: h.tracerProvider, meterProvider: h.meterProvider });
    expect((await swarm.invoke('charged twice')).status).toBe('completed');
    const event = only(h.spans(), 'invoke_workflow desk').events.find((e) => e.name === 'skein.handoff');
    expect(event?.attributes).toMatchObject({
      'skein.handoff.history_before': 3,
      'skein.handoff.history_after': 3,
      'skein.handoff.shared_context_keys': ['triage.orderId'],
      'skein.handoff.also_ran': ['lookup'],
      'skein.handoff.refused': ['transfer_to_refund'],
    });
  });
});
