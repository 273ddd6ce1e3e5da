/**
 * One process of the three-level tests: a Graph (intake -> desk) whose `desk` node is a Swarm
 * (frontline hands off to refund) whose refund member asks an `approvals` agent it uses as a tool,
 * which pays refunds (over 50 EUR after a person's yes). Only the Graph and the Swarm have a session
 * manager (one FileSessionManager); the agent used as a tool has none. Models answer from what their
 * conversation holds, as real ones do, so a new process needs no script position.
 *
 * argv: <storageDir> <amount> <phase> [arg]; phases: `run` (invoke the task), `answer <json>` (resume
 * with an interruptResponse), `resume` (invoke again to go on); `--budget <modelCalls>` limits the
 * invocation, `--hold` keeps the process alive after it printed its outcome (to be SIGKILLed),
 * `--stream` runs `graph.stream()` and prints what every level reported (path, event, text or tool).
 * Payments go to `payments.log` in the storage directory with their idempotency key.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import {
  Agent,
  type AgentStreamEvent,
  type InterruptResponse,
  type ModelRequest,
  type MultiAgentResult,
  type MultiAgentStreamEvent,
  tool,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager } from '@skein/session-file';
import { Swarm } from '@skein/swarm';
import { z } from 'zod';

const args = process.argv.slice(2);
const [storageDir, amountText, phase, arg] = args as [string, string, string, string | undefined];
const amount = Number(amountText);
const budgetAt = args.indexOf('--budget');
const budget = budgetAt >= 0 ? { modelCalls: Number(args[budgetAt + 1]) } : { modelCalls: 1000 };

const answered = (r: ModelRequest, name: string): boolean =>
  r.messages.some((m) => m.content.some((b) => 'toolResult' in b && JSON.stringify(b).includes(name)));
const hasResult = (r: ModelRequest): boolean => r.messages.some((m) => m.content.some((b) => 'toolResult' in b));

const pay = tool({
  name: 'issue_refund',
  description: 'Refund an order',
  inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
  needsApproval: ({ amount: eur }) => eur > 50,
  callback: ({ orderId, amount: eur }, context) => {
    appendFileSync(path.join(storageDir, 'payments.log'), `${orderId}:${eur}:${context.idempotencyKey}\n`);
    return `refunded-${orderId}`;
  },
});
const approvalsModel = new ScriptedModel(
  [
    (r): ScriptedTurn =>
      answered(r, 'refunded-42')
        ? 'Refund of order 42 paid.'
        : {
            toolUses: [
              {
                name: 'issue_refund',
                input: { orderId: '42', amount },
                toolUseId: 'r1',
              },
            ],
          },
  ],
  { loop: true },
);
const approvals = new Agent({
  name: 'approvals',
  model: approvalsModel,
  tools: [pay],
  retryStrategy: null,
});
const refundModel = new ScriptedModel(
  [
    (r): ScriptedTurn =>
      hasResult(r) && answered(r, 'paid')
        ? 'Your refund is on its way.'
        : {
            toolUses: [
              {
                name: 'approvals',
                input: { input: `refund order 42 for ${amount} EUR` },
              },
            ],
          },
  ],
  { loop: true },
);
const refund = new Agent({
  name: 'refund',
  model: refundModel,
  tools: [approvals.asTool()],
  retryStrategy: null,
});
const frontline = new Agent({
  name: 'frontline',
  model: new ScriptedModel(
    [
      {
        toolUses: [{ name: 'transfer_to_refund', input: { message: 'refund 42' } }],
      },
    ],
    {
      loop: true,
    },
  ),
  retryStrategy: null,
});
const intake = new Agent({
  name: 'intake',
  model: new ScriptedModel(['A refund request.'], { loop: true }),
});

const sessionManager = new FileSessionManager({
  sessionId: 'case-42',
  storageDir,
});
const swarm = new Swarm({
  id: 'desk',
  nodes: [frontline, refund],
  sessionManager,
});
const graph = new GraphBuilder()
  .setId('outer')
  .setSessionManager(sessionManager)
  .addNode(intake)
  .addNode(swarm)
  .addEdge('intake', 'desk')
  .build();

const task =
  phase === 'answer' ? [{ interruptResponse: JSON.parse(arg ?? '{}') as InterruptResponse }] : 'Refund order 42';
const events: string[] = [];
/** `path|type|detail` of the innermost event of a wrapper (`nodeStream`, `toolStream`). */
function summary(e: MultiAgentStreamEvent | AgentStreamEvent): string {
  if (e.type === 'nodeStream' || e.type === 'toolStream') return summary(e.event);
  if (e.type === 'textDelta') return `${e.path}|text|${e.data}`;
  if (e.type === 'toolStart' || e.type === 'toolResult')
    return `${e.path}|${e.type}|${e.type === 'toolStart' ? e.toolUse.toolUseId : e.toolResult.toolUseId}`;
  if (e.type === 'interrupt') return `${e.path}|interrupt|${e.interrupts.map((i) => i.source).join(',')}`;
  return `${e.path}|${e.type}|`;
}
async function streamed(): Promise<MultiAgentResult> {
  const gen = graph.stream(task, { budget });
  for (let step = await gen.next(); ; step = await gen.next()) {
    if (step.done) return step.value;
    events.push(summary(step.value));
  }
}
const result = args.includes('--stream') ? await streamed() : await graph.invoke(task, { budget });
const calls = {
  approvals: approvalsModel.callCount,
  refund: refundModel.callCount,
};
process.stdout.write(
  `${JSON.stringify({
    status: result.status,
    interrupts: (result.interrupts ?? []).map((i) => ({
      id: i.id,
      source: i.source,
    })),
    text: result.results['desk']?.text,
    calls,
    events,
  })}\n`,
);
if (args.includes('--hold')) setInterval(() => undefined, 1000);
else await sessionManager.close();
