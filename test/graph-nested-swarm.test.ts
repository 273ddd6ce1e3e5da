import { Agent, messageText, type MultiAgentStreamEvent } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder, type GraphResult } from '@skein/graph';
import { Swarm } from '@skein/swarm';
import { describe, expect, it } from 'vitest';

const agent = (name: string, script: ScriptedTurn[]): Agent =>
  new Agent({ name, model: new ScriptedModel(script), retryStrategy: null });

describe('a Swarm as a graph node', () => {
  it('runs the swarm through MultiAgentBase; its final text feeds the next node', async () => {
    const triage = agent('Triage agent', [
      {
        text: 'Billing it is.',
        toolUses: [{ name: 'transfer_to_billing_agent', input: { message: 'duplicate charge' } }],
      },
    ]);
    const billing = agent('Billing agent', ['Refunded the duplicate charge.']);
    const swarm = new Swarm({ id: 'support', nodes: [triage, billing] });
    const intake = agent('intake', ['Customer says: charged twice.']);
    const report = agent('report', ['Report filed.']);
    const graph = new GraphBuilder()
      .addNode(intake)
      .addNode(swarm)
      .addNode(report)
      .addEdge('intake', 'support')
      .addEdge('support', 'report')
      .build();

    const events: MultiAgentStreamEvent[] = [];
    const gen = graph.stream('I was charged twice');
    let result: GraphResult;
    for (;;) {
      const step = await gen.next();
      if (step.done) {
        result = step.value;
        break;
      }
      events.push(step.value);
    }
    expect(result.status).toBe('completed');
    expect(result.executionOrder).toEqual(['intake', 'support', 'report']);
    expect(result.results['support']).toMatchObject({ status: 'completed', text: 'Refunded the duplicate charge.' });
    expect(result.accumulatedUsage.totalTokens).toBe(4 * 15);
    expect(messageText(report.messages[0])).toContain('From support:  - support: Refunded the duplicate charge.');
    expect(messageText(triage.messages[0])).toContain('From intake:  - intake: Customer says: charged twice.');
    const nested = events.flatMap((e) =>
      e.type === 'nodeStream' && e.nodeId === 'support' && 'type' in e.event ? [e.event.type] : [],
    );
    expect(nested).toContain('transition');
  });
});
