import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, BeforeNodeCallEvent, RunBudget, tool } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder, type GraphState } from '@skein/graph';
import { FileSessionManager, FileSessionRepository } from '@skein/session-file';
import { Swarm } from '@skein/swarm';
import type { SessionManager } from '@skein/core';
import { z } from 'zod';

/** Sessions written by real runs, for the inspector's tests. */

const lookup = tool({
  name: 'lookup_order',
  description: 'Look up an order',
  inputSchema: z.object({ orderId: z.string() }),
  callback: ({ orderId }) => ({ orderId, amount: 80, currency: 'EUR' }),
});

const agent = (name: string, script: ScriptedTurn[]): Agent =>
  new Agent({ name, model: new ScriptedModel(script), tools: [lookup], retryStrategy: null });

const issueRefund = tool({
  name: 'issue_refund',
  description: 'Refund an order',
  inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
  needsApproval: true,
  callback: ({ orderId, amount }) => `refunded ${amount} EUR for order ${orderId}`,
});

/** triage -> refund, where the refund waits for a person's approval; `resumed`: as a new process builds it to resume (its model's next answer is the last). */
function approvalGraph(sessionManager: SessionManager, resumed = false): ReturnType<GraphBuilder['build']> {
  const ask: ScriptedTurn = {
    toolUses: [{ name: 'issue_refund', input: { orderId: '7', amount: 80 }, toolUseId: 'r7' }],
  };
  const refund = new Agent({
    name: 'refund',
    model: new ScriptedModel(resumed ? ['Refunded 80 EUR.'] : [ask, 'Refunded 80 EUR.']),
    tools: [issueRefund],
    retryStrategy: null,
  });
  return new GraphBuilder()
    .setId('approvals')
    .addNode(agent('triage', ['REFUND: order 7']), 'triage')
    .addNode(refund, 'refund')
    .addEdge('triage', 'refund')
    .setSessionManager(sessionManager)
    .build();
}

/** The support graph: triage -> billing | refund (conditions), triage -> audit, [billing, audit] -> summary. */
export function supportGraph(
  sessionManager: SessionManager,
  options: { hangBilling?: AbortController } = {},
): ReturnType<GraphBuilder['build']> {
  const billingScript: ScriptedTurn[] = [
    { toolUses: [{ name: 'lookup_order', input: { orderId: '42' } }] },
    'The duplicate charge on order 42 is reversed.',
  ];
  if (options.hangBilling) billingScript.unshift({ text: 'never', delayMs: 60_000 });
  const isBilling = (s: GraphState): boolean => s.results['triage']?.text.startsWith('BILLING') ?? false;
  const isRefund = (s: GraphState): boolean => s.results['triage']?.text.startsWith('REFUND') ?? false;
  return new GraphBuilder()
    .setId('support')
    .addNode(agent('triage', ['BILLING: charged twice']), 'triage')
    .addNode(agent('billing', billingScript), 'billing')
    .addNode(agent('refund', ['Refund sent.']), 'refund')
    .addNode(agent('audit', ['Audit: nothing unusual.']), 'audit')
    .addNode(agent('summary', ['Summary: order 42 charge reversed.']), 'summary')
    .addEdge('triage', 'billing', isBilling)
    .addEdge('triage', 'refund', isRefund)
    .addEdge('triage', 'audit')
    .addEdge(['billing', 'audit'], 'summary')
    .setSessionManager(sessionManager)
    .build();
}

/** Runs `crash-worker.ts` on `dir` and SIGKILLs it as soon as billing has started. */
function killedWhileBillingRuns(dir: string): Promise<void> {
  const worker = fileURLToPath(new URL('./crash-worker.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@skein/source', '--import', 'tsx', worker, dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('RUNNING billing')) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`the crash worker was not killed:\n${out}`)),
    );
  });
}

/**
 * Writes, under `dir`: a completed graph run, one stopped inside a node and resumed, one SIGKILLed in
 * another process and resumed, one waiting for an approval, one approved and resumed in a new graph
 * (and the same with a budget), a swarm with nested history, a lone agent, and a server's own records.
 */
export async function writeFixtureSessions(dir: string): Promise<void> {
  const fsm = (sessionId: string): FileSessionManager => new FileSessionManager({ sessionId, storageDir: dir });

  const done = fsm('graph-done');
  await supportGraph(done).invoke('I was charged twice for order 42');
  await done.close();

  // Stopped inside billing (as a crash would leave it), then resumed by a fresh graph on the session.
  const stop = new AbortController();
  const crashed = fsm('graph-resumed');
  const graph = supportGraph(crashed, { hangBilling: stop });
  // Stop once billing has started (and its start is stored), whatever the machine's speed.
  graph.hooks.addCallback(BeforeNodeCallEvent, (e) => {
    if (e.nodeId === 'billing') setTimeout(() => stop.abort(), 50);
  });
  const running = graph.invoke('I was charged twice for order 42', { signal: stop.signal });
  await running.catch(() => undefined);
  await crashed.close();
  await supportGraph(fsm('graph-resumed')).invoke('I was charged twice for order 42');

  // Killed with SIGKILL in another process while billing runs, then resumed here from the session.
  await killedWhileBillingRuns(dir);
  await supportGraph(fsm('graph-killed')).invoke('I was charged twice for order 42');

  const waiting = fsm('graph-waiting');
  await approvalGraph(waiting).invoke('Refund order 7, 80 EUR');
  await waiting.close();
  const asking = fsm('graph-approved');
  const paused = await approvalGraph(asking).invoke('Refund order 7, 80 EUR');
  await asking.close();
  const answers = (paused.interrupts ?? []).map((i) => ({
    interruptResponse: { interruptId: i.id, response: { approved: true } },
  }));
  await approvalGraph(fsm('graph-approved'), true).invoke(answers);

  // The same with a budget, as the support desk runs it: the run's tokens count the refund's call before the pause.
  const budget = new RunBudget({ totalTokens: 10_000 });
  const budgeted = fsm('graph-budget');
  const asked = await approvalGraph(budgeted).invoke('Refund order 7, 80 EUR', { budget });
  await budgeted.close();
  // A person takes a while to answer: far longer than the work around it (the page draws the wait as a gap).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const yes = (asked.interrupts ?? []).map((i) => ({
    interruptResponse: { interruptId: i.id, response: { approved: true } },
  }));
  await approvalGraph(fsm('graph-budget'), true).invoke(yes, { budget });

  // What @skein/server keeps beside the runs, written as it writes them: an index session per
  // principal, and its own record inside a conversation's session.
  const repo = new FileSessionRepository({ storageDir: dir });
  const now = new Date().toISOString();
  await repo.createSession({
    session_id: 'skein-index-0f1e2d3c4b5a69788796',
    session_type: 'MULTI_AGENT',
    created_at: now,
    updated_at: now,
  });
  await repo.createMultiAgent('skein-index-0f1e2d3c4b5a69788796', {
    id: 'skein-index',
    type: 'skein-index',
    state: {},
    created_at: now,
    updated_at: now,
  });
  await repo.createMultiAgent('graph-done', {
    id: 'skein-server',
    type: 'skein-server',
    state: {
      v: 1,
      kind: 'graphs',
      name: 'support',
      owner: 'customer:aiko',
      createdAt: now,
      title: 'I was charged twice',
    },
    created_at: now,
    updated_at: now,
  });

  const triage = agent('triage', [
    {
      text: 'Billing will help.',
      toolUses: [{ name: 'transfer_to_billing', input: { message: 'Charged twice for order 42' } }],
    },
  ]);
  const billing = agent('billing', [
    { toolUses: [{ name: 'lookup_order', input: { orderId: '42' } }] },
    'Reversed the duplicate charge.',
  ]);
  const refund = agent('refund', ['never asked']); // a member no turn reaches: the page still draws it
  await new Swarm({
    id: 'desk',
    nodes: [triage, billing, refund],
    nestHandoffHistory: true,
    sessionManager: fsm('swarm-desk'),
  }).invoke('I was charged twice');

  const solo = new Agent({
    name: 'solo',
    model: new ScriptedModel([{ toolUses: [{ name: 'lookup_order', input: { orderId: '7' } }] }, 'Order 7 is 80 EUR.']),
    tools: [lookup],
    sessionManager: fsm('agent-solo'),
  });
  await solo.invoke('How much was order 7?');
}
