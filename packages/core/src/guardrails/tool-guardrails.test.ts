import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AfterToolCallEvent,
  Agent,
  GuardrailTripped,
  messageText,
  tool,
  toolResultsOf,
  toolUsesOf,
  type AgentStreamEvent,
  type Guardrail,
  type JsonObject,
  type ToolSubject,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const pass = { action: 'pass' } as const;

function refundTool(paid: JsonObject[], guardrails?: Guardrail<ToolSubject>[]) {
  return tool({
    name: 'refund',
    description: 'refunds an order',
    inputSchema: z.object({ orderId: z.string(), amountEur: z.number() }),
    callback: (input) => (paid.push(input), `refunded ${input.amountEur} EUR on order ${input.orderId}`),
    ...(guardrails ? { guardrails } : {}),
  });
}

const ownOrders: Guardrail<ToolSubject> = {
  name: 'own-orders',
  check: (s) =>
    s.phase === 'before' && (s.input as { orderId?: string }).orderId !== '42'
      ? { action: 'block', reason: 'the order is not the customer’s' }
      : pass,
};

describe('tool guardrails', () => {
  it('block a call before it runs: the tool does not run and the call is not stored', async () => {
    const paid: JsonObject[] = [];
    const model = new ScriptedModel([
      { text: 'Refunding.', toolUses: [{ name: 'refund', input: { orderId: '108', amountEur: 420 } }] },
    ]);
    const agent = new Agent({ name: 'refund', model, tools: [refundTool(paid)], toolGuardrails: [ownOrders] });
    const error = await agent.invoke('refund order 108').catch((e: unknown) => e);
    expect(GuardrailTripped.is(error) && error.trip).toEqual({
      guardrail: 'own-orders',
      reason: 'the order is not the customer’s',
      where: 'tool',
      path: 'refund',
      tool: 'refund',
    });
    expect(paid).toEqual([]);
    expect(agent.messages.flatMap(toolUsesOf)).toEqual([]);
    expect(messageText(agent.messages.at(-1))).toContain('guardrail own-orders blocked a call of tool refund');
  });

  it('a tool’s own guardrails apply to its calls only', async () => {
    const paid: JsonObject[] = [];
    const model = new ScriptedModel([{ toolUses: [{ name: 'refund', input: { orderId: '7', amountEur: 5 } }] }]);
    const agent = new Agent({ model, tools: [refundTool(paid, [ownOrders])] });
    await expect(agent.invoke('refund 7')).rejects.toThrow(/Guardrail own-orders blocked a call of tool refund/);
    expect(paid).toEqual([]);
  });

  it('rewrite a call’s input: the tool, the stored call and hooks see the rewrite', async () => {
    const paid: JsonObject[] = [];
    const cap: Guardrail<ToolSubject> = {
      name: 'cap',
      check: (s) =>
        s.phase === 'before' && (s.input as { amountEur: number }).amountEur > 50
          ? { action: 'rewrite', input: { ...(s.input as JsonObject), amountEur: 50 } }
          : pass,
    };
    const model = new ScriptedModel([
      { toolUses: [{ name: 'refund', input: { orderId: '42', amountEur: 80 } }] },
      'done',
    ]);
    const agent = new Agent({ model, tools: [refundTool(paid)], toolGuardrails: [cap] });
    const started: AgentStreamEvent[] = [];
    agent.on('toolStart', (e) => started.push(e));
    await agent.invoke('refund');
    expect(paid).toEqual([{ orderId: '42', amountEur: 50 }]);
    expect(agent.messages.flatMap(toolUsesOf)[0]?.input).toEqual({ orderId: '42', amountEur: 50 });
    expect(JSON.stringify(started)).not.toContain('80');
  });

  it('retry a call: it does not run, and the model reads the feedback as its error result', async () => {
    const paid: JsonObject[] = [];
    const ask: Guardrail<ToolSubject> = {
      name: 'ask-amount',
      check: (s) =>
        s.phase === 'before' && (s.input as { amountEur: number }).amountEur > 100
          ? { action: 'retry', feedback: 'at most 100 EUR' }
          : pass,
    };
    const model = new ScriptedModel([
      { toolUses: [{ name: 'refund', input: { orderId: '42', amountEur: 420 } }] },
      { toolUses: [{ name: 'refund', input: { orderId: '42', amountEur: 100 } }] },
      'refunded 100',
    ]);
    const agent = new Agent({ model, tools: [refundTool(paid)], toolGuardrails: [ask] });
    expect(String(await agent.invoke('refund'))).toBe('refunded 100');
    expect(paid).toEqual([{ orderId: '42', amountEur: 100 }]);
    const first = agent.messages.flatMap(toolResultsOf)[0];
    expect(first).toMatchObject({ status: 'error' });
    expect(JSON.stringify(first)).toContain('Guardrail ask-amount refused this call of refund: at most 100 EUR');
  });

  it('rewrite a result: what is stored, streamed and seen by AfterToolCallEvent is the redaction', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'looks up a customer',
      inputSchema: z.object({}),
      callback: () => ({ name: 'Aiko', card: '4111 1111 1111 1111' }),
    });
    const redact: Guardrail<ToolSubject> = {
      name: 'redact',
      check: (s) =>
        s.phase === 'after'
          ? {
              action: 'rewrite',
              result: JSON.parse(JSON.stringify(s.result).replace(/4111 1111 1111 1111/g, '[card]')),
            }
          : pass,
    };
    const model = new ScriptedModel([{ toolUses: [{ name: 'lookup', input: {} }] }, 'ok']);
    const agent = new Agent({ model, tools: [lookup], toolGuardrails: [redact] });
    const seen: unknown[] = [];
    agent.hooks.addCallback(AfterToolCallEvent, (e) => void seen.push(e.result));
    const events: AgentStreamEvent[] = [];
    agent.on('toolResult', (e) => events.push(e));
    await agent.invoke('who?');
    for (const text of [
      JSON.stringify(agent.messages),
      JSON.stringify(seen),
      JSON.stringify(events),
      JSON.stringify(model.requests),
    ])
      expect(text).not.toContain('4111');
    expect(JSON.stringify(agent.messages)).toContain('[card]');
  });

  it('block a result: the model never reads it, and the history still pairs the call with a result', async () => {
    const secret = tool({
      name: 'secret',
      description: 's',
      inputSchema: z.object({}),
      callback: () => 'the launch code is 0000',
    });
    const noCodes: Guardrail<ToolSubject> = {
      name: 'no-codes',
      check: (s) =>
        s.phase === 'after' && JSON.stringify(s.result).includes('launch code')
          ? { action: 'block', reason: 'a launch code' }
          : pass,
    };
    const model = new ScriptedModel([{ toolUses: [{ name: 'secret', input: {} }] }, 'never']);
    const agent = new Agent({ model, tools: [secret], toolGuardrails: [noCodes] });
    await expect(agent.invoke('code?')).rejects.toThrow(/Guardrail no-codes blocked a call of tool secret/);
    expect(model.callCount).toBe(1);
    expect(JSON.stringify(agent.messages)).not.toContain('0000');
    expect(agent.messages.flatMap(toolResultsOf)).toHaveLength(1);
    expect(agent.messages.at(-1)?.role).toBe('assistant');
  });

  it('a trip inside an agent used as a tool ends the caller’s turn too, with both in its path and the principal passed down', async () => {
    const paid: JsonObject[] = [];
    const principals: unknown[] = [];
    const mine: Guardrail<ToolSubject> = {
      name: 'own-orders',
      check: (s, c) => (principals.push(c.principal), ownOrders.check(s, c)),
    };
    const refund = new Agent({
      name: 'refund',
      model: new ScriptedModel([{ toolUses: [{ name: 'refund', input: { orderId: '108', amountEur: 1 } }] }]),
      tools: [refundTool(paid, [mine])],
    });
    const desk = new Agent({
      name: 'desk',
      model: new ScriptedModel([{ toolUses: [{ name: 'ask_refund', input: { input: 'refund 108' } }] }, 'never']),
      tools: [refund.asTool({ name: 'ask_refund', description: 'asks the refund agent' })],
    });
    const error = await desk.invoke('refund 108', { principal: 'customer:aiko' }).catch((e: unknown) => e);
    expect(GuardrailTripped.is(error) && [error.path, error.where, error.tool]).toEqual([
      'desk/refund',
      'tool',
      'refund',
    ]);
    expect(principals).toEqual(['customer:aiko']);
    expect(paid).toEqual([]);
    expect(desk.messages.at(-1)?.role).toBe('assistant');
  });
});
