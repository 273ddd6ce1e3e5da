import { Agent, tool } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Swarm } from './index.js';

const lookup = tool({
  name: 'lookup',
  description: 'looks up',
  inputSchema: z.object({ q: z.string() }),
  callback: ({ q }) => `found ${q}`,
});
const look = (q: string): ScriptedTurn => ({ toolUses: [{ name: 'lookup', input: { q } }] });

function members(): { triage: ScriptedModel; billing: ScriptedModel; swarm: Swarm } {
  const triage = new ScriptedModel([
    { text: 'Billing.', toolUses: [{ name: 'transfer_to_billing', input: { message: 'charged twice' } }] },
  ]);
  // Billing's first run is cut after two calls; run again from its start it needs three.
  const billing = new ScriptedModel([look('a'), look('b'), look('a'), look('b'), 'Refunded.']);
  const swarm = new Swarm({
    nodes: [
      new Agent({ name: 'triage', model: triage, retryStrategy: null }),
      new Agent({ name: 'billing', model: billing, tools: [lookup], retryStrategy: null }),
    ],
  });
  return { triage, billing, swarm };
}

describe('a budget on a swarm', () => {
  it('stops the active agent at a safe point with status budgetExceeded, naming the limit', async () => {
    const { triage, billing, swarm } = members();
    const result = await swarm.invoke('I was charged twice', { budget: { modelCalls: 3 } });
    expect(result.status).toBe('budgetExceeded');
    expect(result.budgetExceeded).toEqual({ limit: 'modelCalls', max: 3, spent: 3 });
    expect(result.nodeHistory).toEqual(['triage', 'billing']);
    expect(result.results['billing']).toMatchObject({
      status: 'budgetExceeded',
      budgetExceeded: { limit: 'modelCalls' },
    });
    expect(result.transitions.at(-1)).toMatchObject({ kind: 'budget', from: 'billing', to: null });
    expect([triage.callCount, billing.callCount]).toEqual([1, 2]);
    const tree = result.usage;
    expect(tree).toMatchObject({
      name: 'default_swarm',
      kind: 'swarm',
      spend: { modelCalls: 3, nodeExecutions: 2, toolCalls: 2 },
    });
    expect(tree?.children.map((c) => [c.name, c.spend.modelCalls])).toEqual([
      ['triage', 1],
      ['billing', 2],
    ]);
  });

  it('resumes where it stopped with a larger budget, counting what the run spent before', async () => {
    const { triage, billing, swarm } = members();
    expect((await swarm.invoke('I was charged twice', { budget: { modelCalls: 3 } })).status).toBe('budgetExceeded');
    const same = await swarm.invoke('I was charged twice', { budget: { modelCalls: 3 } });
    expect(same.status).toBe('budgetExceeded'); // nothing left: stops before running a node
    expect(billing.callCount).toBe(2);
    const result = await swarm.invoke('I was charged twice', { budget: { modelCalls: 10 } });
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Refunded.');
    expect(triage.callCount).toBe(1); // its committed turn is not run again
    expect(billing.callCount).toBe(5); // the cut turn runs again from its start
    expect(result.usage?.spend.modelCalls).toBe(6);
    expect(result.transitions.map((t) => t.kind)).toEqual([
      'start',
      'handoff',
      'budget',
      'resume',
      'budget',
      'resume',
      'complete',
    ]);
  });
});
