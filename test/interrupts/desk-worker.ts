/**
 * One process of the interrupt tests: builds the refund desk (a Graph or a Swarm) on a
 * FileSessionManager and either asks (`ask`: runs the task until the refund approval, prints the
 * interrupts, then exits, or with `ask-hold` waits to be killed) or answers (`answer <json>`: resumes
 * with the given answer and prints the outcome). Refunds are appended to `refunds.log` in the storage
 * directory, so the parent counts them across processes.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { Agent, tool, type InterruptResponseBlock, type MultiAgentResult } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager } from '@skein/session-file';
import { Swarm } from '@skein/swarm';
import { z } from 'zod';

const [shape, storageDir, phase, answer] = process.argv.slice(2) as [string, string, string, string | undefined];
const asking = phase !== 'answer';

const issueRefund = tool({
  name: 'issue_refund',
  description: 'Refund an order',
  inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
  needsApproval: ({ amount }) => amount > 50,
  callback: ({ orderId, amount }) => {
    appendFileSync(path.join(storageDir, 'refunds.log'), `${orderId}:${amount}\n`);
    return `refunded ${amount} EUR`;
  },
});

const refundAsk: ScriptedTurn = {
  toolUses: [{ name: 'issue_refund', input: { orderId: '42', amount: 80 }, toolUseId: 'r1' }],
};
const triageScript: ScriptedTurn[] = !asking
  ? []
  : shape === 'graph'
    ? ['route: refund']
    : [{ toolUses: [{ name: 'transfer_to_refund', toolUseId: 'h1', input: { message: 'refund order 42' } }] }];
const refundScript: ScriptedTurn[] = asking
  ? [refundAsk]
  : [(req) => (JSON.stringify(req.messages).includes('denied') ? 'Refund declined.' : 'Refund done.')];

const sessionManager = new FileSessionManager({ sessionId: 'case-42', storageDir });
const triage = new Agent({ name: 'triage', model: new ScriptedModel(triageScript), retryStrategy: null });
const refund = new Agent({
  name: 'refund',
  model: new ScriptedModel(refundScript),
  tools: [issueRefund],
  retryStrategy: null,
});
const desk =
  shape === 'graph'
    ? new GraphBuilder()
        .setId('desk')
        .setSessionManager(sessionManager)
        .addNode(triage)
        .addNode(refund)
        .addEdge('triage', 'refund')
        .build()
    : new Swarm({ id: 'desk', nodes: [triage, refund], sessionManager });

let result: MultiAgentResult;
if (asking) result = await desk.invoke('I want my 80 EUR back for order 42');
else {
  const { interruptId, response } = JSON.parse(answer ?? '{}') as { interruptId: string; response: unknown };
  result = await desk.invoke([{ interruptResponse: { interruptId, response } } as InterruptResponseBlock]);
}
const text = result.results['refund']?.text;
if (process.env.SKEIN_DEBUG) console.error(JSON.stringify(result, null, 1).slice(0, 3000));
process.stdout.write(
  `${JSON.stringify({ status: result.status, interrupts: result.interrupts ?? [], text, transitions: result.transitions.map((t) => t.kind) })}\n`,
);
if (phase === 'ask-hold') setInterval(() => undefined, 60_000);
