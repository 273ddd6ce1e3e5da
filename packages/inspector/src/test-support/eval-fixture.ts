/**
 * Evaluations for the `skein eval` tests: a one-agent shop on a scripted model (a refund over 50 EUR
 * needs approval). `default` routes right; `broken` answers refunds without refunding.
 */
import { z } from 'zod';
import { Agent, tool, type Message, type SessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { answer, interrupts, toolCalls, type CaseInput, type EvaluateOptions } from '@skein/evals';

const textOf = (m: Message | undefined): string => m?.content.map((b) => ('text' in b ? b.text : '')).join('') ?? '';

export function shopAgent(sessionManager: SessionManager | undefined, broken = false): Agent {
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order',
    inputSchema: z.object({ orderId: z.string(), amountEur: z.number() }),
    needsApproval: ({ amountEur }) => amountEur > 50,
    callback: ({ orderId, amountEur }) => `refunded ${amountEur} EUR for order ${orderId}`,
  });
  const model = new ScriptedModel(
    [
      (request) => {
        const last = request.messages.at(-1);
        const result = last?.content.find((b) => 'toolResult' in b);
        if (result && 'toolResult' in result) return `Done: ${JSON.stringify(result.toolResult.content)}`;
        const said = textOf(last);
        const order = /order (\d+)/.exec(said)?.[1];
        const amount = Number(/(\d+) EUR/.exec(said)?.[1] ?? 10);
        if (!order || broken) return 'How can I help?';
        return { toolUses: [{ name: 'refund', input: { orderId: order, amountEur: amount } }] };
      },
    ],
    { loop: true },
  );
  return new Agent({ name: 'desk', model, tools: [refund], ...(sessionManager ? { sessionManager } : {}) });
}

export const SHOP_CASES: CaseInput[] = [
  {
    id: 'small-refund',
    input: 'Refund order 7, 12 EUR',
    expect: {
      tools: { calls: [{ name: 'refund', args: { amountEur: 12 } }] },
      interrupts: [],
      answer: { includes: ['refunded 12 EUR'] },
    },
  },
  {
    id: 'large-refund',
    input: 'Refund order 8, 60 EUR',
    answers: [{ approve: true }],
    expect: {
      tools: { calls: [{ name: 'refund' }] },
      interrupts: [{ tool: 'refund' }],
      answer: { includes: ['refunded 60 EUR'] },
    },
  },
  { id: 'hello', input: 'Hello', expect: { tools: { notCalled: ['refund'] }, answer: { includes: ['help'] } } },
];

const evaluation = (broken: boolean): EvaluateOptions => ({
  name: 'shop',
  target: (ctx) => shopAgent(ctx.sessionManager, broken),
  cases: SHOP_CASES,
  scorers: [toolCalls(), interrupts(), answer()],
});

export default evaluation(false);
export const broken = evaluation(true);
