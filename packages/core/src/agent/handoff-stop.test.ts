import { describe, expect, it } from 'vitest';
import { Agent, handoffToolName } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

describe('handoffs in the core loop', () => {
  it('names handoff tools transfer_to_<agent> with runs of other characters as one "_"', () => {
    expect(handoffToolName('Refund agent')).toBe('transfer_to_refund_agent');
    expect(handoffToolName('Billing -- Agent (EU)')).toBe('transfer_to_billing_agent_eu_');
  });

  it('offers handoffs as tools and stops with stopReason handoff after recording the result', async () => {
    const billing = new Agent({
      name: 'Billing agent',
      handoffDescription: 'Invoices and payments.',
      model: new ScriptedModel([]),
    });
    const model = new ScriptedModel([
      { toolUses: [{ name: 'transfer_to_billing_agent', input: {}, toolUseId: 'h1' }] },
    ]);
    const triage = new Agent({ name: 'Triage agent', model, handoffs: [billing] });
    const result = await triage.invoke('I was charged twice');
    expect(model.requests[0]?.toolNames).toEqual(['transfer_to_billing_agent']);
    expect(triage.handoffs[0]?.toolDescription).toContain('Invoices and payments.');
    expect(result.stopReason).toBe('handoff');
    expect(result.handoff?.target).toBe(billing);
    expect(result.handoff?.toolUseId).toBe('h1');
    expect(triage.messages.at(-1)?.content[0]).toMatchObject({ toolResult: { toolUseId: 'h1', status: 'success' } });
  });

  it('performs only the first of two handoffs in one turn', async () => {
    const billing = new Agent({ name: 'billing', model: new ScriptedModel([]) });
    const refund = new Agent({ name: 'refund', model: new ScriptedModel([]) });
    const model = new ScriptedModel([
      {
        toolUses: [
          { name: 'transfer_to_refund', toolUseId: 'a' },
          { name: 'transfer_to_billing', toolUseId: 'b' },
        ],
      },
    ]);
    const triage = new Agent({ name: 'triage', model, handoffs: [billing, refund] });
    const result = await triage.invoke('help');
    expect(result.handoff?.target).toBe(refund);
    const results = triage.messages.at(-1)?.content ?? [];
    expect(results[0]).toMatchObject({ toolResult: { toolUseId: 'a', status: 'success' } });
    expect(results[1]).toMatchObject({ toolResult: { toolUseId: 'b', status: 'error' } });
    expect(JSON.stringify(results[1])).toContain('only the first handoff');
  });

  it('lets an orchestrator offer handoffs per invocation', async () => {
    const other = new Agent({ name: 'other', model: new ScriptedModel([]) });
    const model = new ScriptedModel(['no transfer']);
    const agent = new Agent({ name: 'solo', model });
    await agent.invoke('x', { handoffs: [other] });
    expect(model.requests[0]?.toolNames).toEqual(['transfer_to_other']);
  });
});
