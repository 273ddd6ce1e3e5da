import { Agent, type ContentBlock, type Message, type MultiAgentStreamEvent } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { handoff, removeAllTools } from '@skein/handoffs';
import { Swarm, TRANSFER_OPENER, type SwarmResult } from '@skein/swarm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A member agent driven by a script; its model records every request. */
function member(
  name: string,
  script: ScriptedTurn[],
  extra: Partial<ConstructorParameters<typeof Agent>[0]> = {},
): { agent: Agent; model: ScriptedModel } {
  const model = new ScriptedModel(script);
  return { agent: new Agent({ model, name, retryStrategy: null, ...extra }), model };
}

const text = (m: Message | undefined): string => (m?.content ?? []).map((b) => ('text' in b ? b.text : '')).join('');
const blocks = (messages: readonly Message[]): ContentBlock[] => messages.flatMap((m) => m.content);
const hasTools = (messages: readonly Message[]): boolean =>
  blocks(messages).some((b) => 'toolUse' in b || 'toolResult' in b);

async function collect(swarm: Swarm, task: string): Promise<{ events: MultiAgentStreamEvent[]; result: SwarmResult }> {
  const events: MultiAgentStreamEvent[] = [];
  const gen = swarm.stream(task);
  for (;;) {
    const step = await gen.next();
    if (step.done) return { events, result: step.value };
    events.push(step.value);
  }
}

describe('triage / billing / refund swarm', () => {
  it('transfers with a message and shared context; the next agent sees the conversation and a note', async () => {
    const triage = member('Triage agent', [
      {
        text: 'Let me get billing.',
        toolUses: [
          {
            name: 'transfer_to_billing_agent',
            toolUseId: 'h1',
            input: { message: 'Charged twice for order 42', context: { order_id: '42' } },
          },
        ],
      },
    ]);
    const billing = member('Billing agent', ['I have refunded the duplicate charge on order 42.']);
    const refund = member('Refund agent', []);
    const swarm = new Swarm({ nodes: [triage.agent, billing.agent, refund.agent] });
    const { events, result } = await collect(swarm, 'I was charged twice for order 42');

    expect(result.status).toBe('completed');
    expect(result.nodeHistory).toEqual(['Triage agent', 'Billing agent']);
    expect(result.handoffCount).toBe(1);
    expect(result.text).toBe('I have refunded the duplicate charge on order 42.');
    expect(result.finalNodeId).toBe('Billing agent');
    expect(result.sharedContext).toEqual({ 'Triage agent': { order_id: '42' } });
    expect(result.transitions.map((t) => [t.kind, t.from, t.to])).toEqual([
      ['start', null, 'Triage agent'],
      ['handoff', 'Triage agent', 'Billing agent'],
      ['complete', 'Billing agent', null],
    ]);
    expect(result.transitions[1]?.reason).toBe('Charged twice for order 42');
    expect(result.executionCount).toBe(2);
    expect(result.accumulatedUsage.totalTokens).toBe(30);
    expect(result.results['Billing agent']?.status).toBe('completed');

    // Triage was offered one default transfer per other member.
    expect(triage.model.requests[0]?.toolNames).toEqual(['transfer_to_billing_agent', 'transfer_to_refund_agent']);
    // What billing's model actually received.
    const request = billing.model.requests[0];
    expect(request?.toolNames).toEqual(['transfer_to_triage_agent', 'transfer_to_refund_agent']);
    const sent = request?.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(text(sent[0])).toBe('I was charged twice for order 42');
    expect(sent[1]?.content.some((b) => 'toolUse' in b && b.toolUse.name === 'transfer_to_billing_agent')).toBe(true);
    const last = sent[2] as Message;
    expect(last.content[0]).toMatchObject({ toolResult: { toolUseId: 'h1', status: 'success' } });
    expect(text(last)).toContain('Triage agent handed this conversation to you (Billing agent)');
    expect(text(last)).toContain('Message from Triage agent: Charged twice for order 42');
    expect(text(last)).toContain('{"Triage agent":{"order_id":"42"}}');

    const kinds = events.map((e) =>
      e.type === 'nodeStream'
        ? `stream:${e.nodeId}`
        : e.type === 'transition'
          ? `transition:${e.transition.kind}`
          : `${e.type}:${e.nodeId}`,
    );
    const compact = kinds.filter((k, i) => !k.startsWith('stream') || kinds[i - 1] !== k);
    expect(compact).toEqual([
      'transition:start',
      'nodeStart:Triage agent',
      'stream:Triage agent',
      'nodeStop:Triage agent',
      'transition:handoff',
      'nodeStart:Billing agent',
      'stream:Billing agent',
      'nodeStop:Billing agent',
      'transition:complete',
    ]);
  });

  it('applies a handoff input filter: removeAllTools leaves no tool blocks for the next agent', async () => {
    const billing = member('Billing agent', ['Billing here.']);
    const lookup = { name: 'lookup_order', toolUseId: 'l1', input: { id: '42' } };
    const triage = member(
      'Triage agent',
      [
        { toolUses: [lookup] },
        { text: 'Passing you on.', toolUses: [{ name: 'transfer_to_billing_agent', toolUseId: 'h1' }] },
      ],
      {
        handoffs: [handoff(billing.agent, { inputFilter: removeAllTools })],
      },
    );
    const swarm = Swarm.fromAgent(triage.agent);
    const result = await swarm.invoke('Where is my invoice?');
    expect(result.status).toBe('completed');
    const sent = billing.model.requests[0]?.messages ?? [];
    expect(hasTools(sent)).toBe(false);
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(text(sent[0])).toBe('Where is my invoice?');
    expect(text(sent[1])).toBe('Passing you on.');
    expect(text(sent[2])).toContain('handed this conversation to you');
    // fromAgent: billing declares nothing, so it may transfer back to triage by default.
    expect(billing.model.requests[0]?.toolNames).toEqual(['transfer_to_triage_agent']);
  });

  it('nests the history on request and keeps appending to one summary over several handoffs', async () => {
    const triage = member('Triage agent', [
      {
        text: 'Billing can help.',
        toolUses: [{ name: 'transfer_to_billing_agent', input: { message: 'double charge' } }],
      },
    ]);
    const billing = member('Billing agent', [
      { text: 'This needs a refund.', toolUses: [{ name: 'transfer_to_refund_agent' }] },
    ]);
    const refund = member('Refund agent', ['Refund issued.']);
    const swarm = new Swarm({ nodes: [triage.agent, billing.agent, refund.agent], nestHandoffHistory: true });
    const result = await swarm.invoke('I was charged twice');
    expect(result.status).toBe('completed');

    const toBilling = billing.model.requests[0]?.messages ?? [];
    expect(toBilling.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(text(toBilling[0])).toBe(TRANSFER_OPENER);
    expect(text(toBilling[1])).toMatch(
      /^<CONVERSATION HISTORY>\n1\. user: I was charged twice\n2\. assistant: Billing can help\./,
    );
    expect(text(toBilling[1])).toMatch(/<\/CONVERSATION HISTORY>$/);
    expect(hasTools(toBilling)).toBe(false);
    expect(text(toBilling[2])).toContain('Message from Triage agent: double charge');

    const toRefund = refund.model.requests[0]?.messages ?? [];
    expect(toRefund.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const summary = text(toRefund[1]);
    expect(summary.match(/<CONVERSATION HISTORY>/g)).toHaveLength(1);
    expect(summary).toContain('1. user: I was charged twice');
    expect(summary).toContain('user: [Transfer] Triage agent handed this conversation to you (Billing agent).');
    expect(summary).toContain('assistant: This needs a refund.');
    expect(summary).not.toContain(TRANSFER_OPENER);
  });

  it('a handoff can opt out of nested history, and an explicit filter wins over nesting', async () => {
    const billing = member('Billing agent', ['ok']);
    const triage = member('Triage agent', [{ toolUses: [{ name: 'transfer_to_billing_agent', toolUseId: 'h1' }] }], {
      handoffs: [handoff(billing.agent, { nestHandoffHistory: false })],
    });
    await Swarm.fromAgent(triage.agent, { nestHandoffHistory: true }).invoke('hi');
    expect(billing.model.requests[0]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(hasTools(billing.model.requests[0]?.messages ?? [])).toBe(true);

    const billing2 = member('Billing agent', ['ok']);
    const triage2 = member(
      'Triage agent',
      [{ text: 'over to billing', toolUses: [{ name: 'transfer_to_billing_agent' }] }],
      {
        handoffs: [handoff(billing2.agent, { inputFilter: removeAllTools })],
      },
    );
    await Swarm.fromAgent(triage2.agent, { nestHandoffHistory: true }).invoke('hi');
    const sent = billing2.model.requests[0]?.messages ?? [];
    expect(text(sent[1])).toBe('over to billing');
    expect(hasTools(sent)).toBe(false);
  });

  it('inputType + onHandoff: invalid arguments get an error result and no transfer; valid ones transfer', async () => {
    const calls: string[] = [];
    const refund = member('Refund agent', ['Refund of order 42 started.']);
    const refundHandoff = handoff(refund.agent, {
      inputType: z.object({ orderId: z.string().regex(/^\d+$/) }),
      onHandoff: async (ctx, input) => {
        calls.push(`${ctx.agent.name}:${input.orderId}`);
      },
    });
    const triage = member(
      'Triage agent',
      [
        { toolUses: [{ name: 'transfer_to_refund_agent', toolUseId: 'bad', input: { orderId: 'forty-two' } }] },
        { toolUses: [{ name: 'transfer_to_refund_agent', toolUseId: 'good', input: { orderId: '42' } }] },
      ],
      { handoffs: [refundHandoff] },
    );
    const result = await Swarm.fromAgent(triage.agent).invoke('refund order 42');
    expect(result.status).toBe('completed');
    expect(result.nodeHistory).toEqual(['Triage agent', 'Refund agent']);
    expect(calls).toEqual(['Triage agent:42']);
    expect(result.sharedContext).toEqual({});
    const sent = refund.model.requests[0]?.messages ?? [];
    const results = blocks(sent).flatMap((b) => ('toolResult' in b ? [b.toolResult] : []));
    expect(results.map((r) => [r.toolUseId, r.status])).toEqual([
      ['bad', 'error'],
      ['good', 'success'],
    ]);
    expect(JSON.stringify(results[0]?.content)).toContain('orderId');
    expect(triage.model.requests[1]?.messages.at(-1)?.content[0]).toMatchObject({
      toolResult: { toolUseId: 'bad', status: 'error' },
    });
  });

  it('isEnabled is evaluated at every model call; disabled handoffs are not shown', async () => {
    const refund = member('Refund agent', ['done']);
    const billing = member('Billing agent', []);
    let verified = false;
    const seen: boolean[] = [];
    const verify = { name: 'verify' };
    const triage = member(
      'Triage agent',
      [
        () => {
          verified = true;
          return { toolUses: [verify] };
        },
        { toolUses: [{ name: 'transfer_to_refund_agent' }] },
      ],
      {
        handoffs: [
          billing.agent,
          handoff(refund.agent, {
            isEnabled: (ctx) => (seen.push(verified), verified && ctx.agent.name === 'Triage agent'),
          }),
        ],
      },
    );
    const result = await Swarm.fromAgent(triage.agent).invoke('refund me');
    expect(triage.model.requests.map((r) => r.toolNames)).toEqual([
      ['transfer_to_billing_agent'],
      ['transfer_to_billing_agent', 'transfer_to_refund_agent'],
    ]);
    expect(seen).toEqual([false, true]);
    expect(result.nodeHistory).toEqual(['Triage agent', 'Refund agent']);
  });

  it('two handoffs in one turn: the first wins, the second gets an error result', async () => {
    const billing = member('Billing agent', ['Billing here.']);
    const refund = member('Refund agent', []);
    const triage = member('Triage agent', [
      {
        toolUses: [
          { name: 'transfer_to_billing_agent', toolUseId: 'first' },
          { name: 'transfer_to_refund_agent', toolUseId: 'second' },
        ],
      },
    ]);
    const result = await new Swarm({ nodes: [triage.agent, billing.agent, refund.agent] }).invoke('help');
    expect(result.nodeHistory).toEqual(['Triage agent', 'Billing agent']);
    expect(refund.model.requests).toHaveLength(0);
    const sent = billing.model.requests[0]?.messages ?? [];
    const results = blocks(sent).flatMap((b) => ('toolResult' in b ? [b.toolResult] : []));
    expect(results.map((r) => [r.toolUseId, r.status])).toEqual([
      ['first', 'success'],
      ['second', 'error'],
    ]);
    expect(JSON.stringify(results[1]?.content)).toMatch(/Ignored/);
  });

  it('run-wide settings: a history mapper for nested history, a default input filter, and a failing filter', async () => {
    const triage = member('Triage agent', [{ text: 'to billing', toolUses: [{ name: 'transfer_to_billing_agent' }] }]);
    const billing = member('Billing agent', ['ok']);
    const mapped = new Swarm({
      nodes: [triage.agent, billing.agent],
      nestHandoffHistory: true,
      handoffHistoryMapper: (transcript) => [
        { role: 'user', content: [{ text: `(${transcript.length} earlier messages omitted)` }] },
      ],
    });
    await mapped.invoke('hi');
    const sent = billing.model.requests[0]?.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(['user']);
    expect(text(sent[0])).toMatch(/^\(3 earlier messages omitted\)\[Transfer\] Triage agent handed/);

    const t2 = member('Triage agent', [{ text: 'to billing', toolUses: [{ name: 'transfer_to_billing_agent' }] }]);
    const b2 = member('Billing agent', ['ok']);
    await new Swarm({
      nodes: [t2.agent, b2.agent],
      handoffInputFilter: removeAllTools,
      nestHandoffHistory: true,
    }).invoke('hi');
    expect(b2.model.requests[0]?.messages.map((m) => text(m).slice(0, 10))).toEqual(['hi', 'to billing', '[Transfer]']);

    const t3 = member('Triage agent', [{ toolUses: [{ name: 'transfer_to_billing_agent' }] }]);
    const b3 = member('Billing agent', []);
    const broken = await new Swarm({
      nodes: [t3.agent, b3.agent],
      handoffInputFilter: () => {
        throw new Error('filter bug');
      },
    }).invoke('hi');
    expect(broken.status).toBe('failed');
    expect(broken.failureReason).toBe('The input filter of transfer_to_billing_agent failed: filter bug');
  });

  it('shared context accumulates across transfers, by the node that shared it', async () => {
    const triage = member('Triage agent', [
      { toolUses: [{ name: 'transfer_to_billing_agent', input: { context: { order_id: '42', tier: 'gold' } } }] },
    ]);
    const billing = member('Billing agent', [
      {
        toolUses: [{ name: 'transfer_to_refund_agent', input: { message: 'refund 49.90', context: { amount: 49.9 } } }],
      },
    ]);
    const refund = member('Refund agent', ['Refunded.']);
    const result = await new Swarm({ nodes: [triage.agent, billing.agent, refund.agent] }).invoke('charged twice');
    expect(result.sharedContext).toEqual({
      'Triage agent': { order_id: '42', tier: 'gold' },
      'Billing agent': { amount: 49.9 },
    });
    const note = text(refund.model.requests[0]?.messages.at(-1));
    expect(note).toContain('Message from Billing agent: refund 49.90');
    expect(note).toContain('"Triage agent":{"order_id":"42","tier":"gold"}');
    expect(note).toContain('"Billing agent":{"amount":49.9}');
  });
});
