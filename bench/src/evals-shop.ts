/** The target and cases of `evals.bench.ts`: a 3-node graph on scripted models, half the cases waiting for an approval. */
import { z } from 'zod';
import { Agent, tool, type ModelRequest, type SessionManager } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import type { CaseInput } from '@skein/evals';
import { GraphBuilder, type Graph } from '@skein/graph';

const said = (r: ModelRequest): string =>
  (r.messages.at(0)?.content ?? []).map((b) => ('text' in b ? b.text : '')).join('');
const resultOf = (r: ModelRequest): string | undefined => {
  const block = r.messages.at(-1)?.content.find((b) => 'toolResult' in b);
  return block && 'toolResult' in block ? JSON.stringify(block.toolResult.content) : undefined;
};
const model = (policy: (r: ModelRequest) => ScriptedTurn, delayMs: number): ScriptedModel =>
  new ScriptedModel(
    [
      (r) => {
        const turn = policy(r);
        return typeof turn === 'string' ? { text: turn, delayMs } : { ...(turn as object), delayMs };
      },
    ],
    { loop: true, record: false },
  );

/** Triage routes to refund or billing; a refund over 50 EUR waits for approval. Three or four model calls a case. */
const RefundInput = z.object({ orderId: z.string(), amountEur: z.number() });

export function shop(sessionManager: SessionManager | undefined, delayMs: number): Graph {
  const refundTool = tool({
    name: 'issue_refund',
    description: 'Refunds an order',
    inputSchema: RefundInput,
    needsApproval: ({ amountEur }) => amountEur > 50,
    callback: ({ orderId, amountEur }) => `refunded ${amountEur} EUR for order ${orderId}`,
  });
  const specialist = (name: string) =>
    new Agent({
      name,
      tools: [refundTool],
      model: model((r) => {
        const done = resultOf(r);
        if (done) return `Done: ${done}`;
        const amount = Number(/(\d+) EUR/.exec(said(r))?.[1] ?? 10);
        return { toolUses: [{ name: 'issue_refund', input: { orderId: '7', amountEur: amount } }] };
      }, delayMs),
    });
  const triage = new Agent({
    name: 'triage',
    model: model((r) => (/refund/.test(said(r)) ? 'ROUTE: refund' : 'ROUTE: billing'), delayMs),
  });
  const builder = new GraphBuilder()
    .addNode(triage)
    .addNode(specialist('refund'))
    .addNode(specialist('billing'))
    .addEdge('triage', 'refund', (s) => s.results['triage']?.text === 'ROUTE: refund')
    .addEdge('triage', 'billing', (s) => s.results['triage']?.text === 'ROUTE: billing');
  if (sessionManager) builder.setSessionManager(sessionManager);
  return builder.build();
}

export const CASES: CaseInput[] = [
  {
    id: 'refund-small',
    input: 'Please refund order 7, 12 EUR',
    expect: {
      trajectory: { nodes: ['triage', 'refund'] },
      tools: { calls: [{ name: 'issue_refund', args: { amountEur: 12 } }] },
      interrupts: [],
      answer: { includes: ['refunded 12 EUR'] },
    },
  },
  {
    id: 'refund-large',
    input: 'Please refund order 7, 60 EUR',
    answers: [{ approve: true }],
    expect: {
      trajectory: { nodes: ['triage', 'refund'] },
      tools: { calls: [{ name: 'issue_refund' }] },
      interrupts: [{ tool: 'issue_refund' }],
      answer: { includes: ['refunded 60 EUR'] },
    },
  },
];
