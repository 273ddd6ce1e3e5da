import { Agent, isValidStart, type AgentHandle, type Message } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import {
  composeFilters,
  handoff,
  handoffInputMessages,
  mergeSameRole,
  nestHandoffHistory,
  removeAllTools,
  resolveInputFilter,
  type HandoffInputData,
} from '@skein/handoffs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A minimal hand-written runner: what any orchestrator does with core's `result.handoff` (its target is an `AgentHandle`). */
async function runWithHandoffs(
  entry: Agent,
  task: string,
  settings: Parameters<typeof resolveInputFilter>[1] = {},
): Promise<{ path: string[]; last: AgentHandle }> {
  const path = [entry.name];
  let agent: AgentHandle = entry;
  let inputHistory: Message[] = [{ role: 'user', content: [{ text: task }] }];
  let pre: Message[] = [];
  agent.messages = [...inputHistory];
  for (;;) {
    const before = agent.messages.length;
    const result = await agent.invoke();
    if (!result.handoff) return { path, last: agent };
    const data: HandoffInputData = {
      inputHistory,
      preHandoffItems: pre,
      newItems: agent.messages.slice(before),
      context: { agent, invocationState: {} },
    };
    const filter = resolveInputFilter(result.handoff.handoff, settings);
    const shaped = filter ? await filter(data) : data;
    inputHistory = [...shaped.inputHistory];
    pre = [...shaped.preHandoffItems, ...shaped.newItems];
    agent = result.handoff.target;
    agent.messages = mergeSameRole([
      ...handoffInputMessages(shaped),
      { role: 'user', content: [{ text: `You are ${agent.name} now.` }] },
    ]);
    path.push(agent.name);
  }
}

describe('handoffs with a hand-written runner', () => {
  it('transfers through core, filters with removeAllTools + nested history, and leaves a valid request', async () => {
    const refundModel = new ScriptedModel(['Refund done.']);
    const refund = new Agent({ model: refundModel, name: 'Refund agent' });
    const billingModel = new ScriptedModel([
      { toolUses: [{ name: 'lookup', toolUseId: 'l1' }] },
      { text: 'Refund needed.', toolUses: [{ name: 'transfer_to_refund_agent', input: { orderId: '42' } }] },
    ]);
    const billing = new Agent({
      model: billingModel,
      name: 'Billing agent',
      handoffs: [
        handoff(refund, {
          inputType: z.object({ orderId: z.string() }),
          inputFilter: composeFilters(removeAllTools, nestHandoffHistory),
        }),
      ],
    });
    const triage = new Agent({
      model: new ScriptedModel([{ text: 'To billing.', toolUses: [{ name: 'transfer_to_billing_agent' }] }]),
      name: 'Triage agent',
      handoffs: [billing],
    });

    const { path, last } = await runWithHandoffs(triage, 'charged twice', { nestHandoffHistory: false });
    expect(path).toEqual(['Triage agent', 'Billing agent', 'Refund agent']);
    expect(last).toBe(refund);

    // Billing received the full history (no filter, nesting off) and it is a valid start.
    const toBilling = billingModel.requests[0]?.messages ?? [];
    expect(toBilling.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(isValidStart(toBilling, 0)).toBe(true);

    // Refund received one tool-free summary (removeAllTools, then nesting) plus the runner's turn; a runner
    // for providers that want a user message first puts an opener in front (as @skein/swarm does).
    const toRefund = refundModel.requests[0]?.messages ?? [];
    expect(toRefund.map((m) => m.role)).toEqual(['assistant', 'user']);
    const summary = JSON.stringify(toRefund[0]);
    expect(summary).toContain('<CONVERSATION HISTORY>');
    expect(summary).not.toContain('lookup');
    expect(summary).toContain('assistant: Refund needed.');
  });
});
