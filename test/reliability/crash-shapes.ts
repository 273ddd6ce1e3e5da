/**
 * The shapes a crash campaign runs, support-desk style, with seeded waits in every model call and
 * tool: a Graph (triage -> billing | refund -> summary, triage -> audit + notify -> join -> report,
 * and triage -> dispatch -> 8 workers -> join -> collect), a Swarm (triage -> billing -> refund, nested history) and one Agent with tools.
 * Every refund needs approval (`needsApproval`): the run pauses, the worker answers yes, and a kill can
 * land while the approval waits, while it is stored, or while the approved refund runs. The
 * billing agent has few-shot `messages`. Models are pure functions of the request, so a process
 * that resumes answers as the killed one would have.
 */
import { z } from 'zod';
import {
  Agent,
  tool,
  type Interrupt,
  type InterruptResponseBlock,
  type Message,
  type ModelRequest,
  type SessionManager,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder, type GraphState } from '@skein/graph';
import { Swarm } from '@skein/swarm';
import { keyed } from './seeded.js';

export type Shape = 'graph' | 'swarm' | 'agent';

/** What a trial's process reports; compared with an uninterrupted run of the same seed. */
export interface TrialResult {
  status: string;
  /** `stored`: the run had finished before the last kill and was read back (the process may not have written). */
  source?: 'run' | 'stored';
  texts: Record<string, string>;
  transitions: string[];
}

export interface BuiltShape {
  run(): Promise<TrialResult>;
  close(): Promise<void>;
}

const FEW_SHOT: Message[] = [
  { role: 'user', content: [{ text: 'Example: charged twice for order 1.' }] },
  { role: 'assistant', content: [{ text: 'Example: I looked it up and reversed the duplicate.' }] },
];

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const toolResults = (request: ModelRequest): number =>
  request.messages.flatMap((m) => m.content).filter((b) => 'toolResult' in b).length;
const lastIsToolResult = (request: ModelRequest): boolean =>
  request.messages.at(-1)?.content.some((b) => 'toolResult' in b) ?? false;

/** Approves everything that waits (the person at the desk says yes). */
const yes = (interrupts: readonly Interrupt[]): InterruptResponseBlock[] =>
  interrupts.map((i) => ({ interruptResponse: { interruptId: i.id, response: { approved: true } } }));

/** A session manager the worker opened (file or S3) for the trial's session. */
export type TrialSessionManager = SessionManager & { close(): Promise<void> };

export function buildShape(
  shape: Shape,
  sessionManager: TrialSessionManager,
  seed: number,
  commit: (line: string) => void,
  modelCalls?: number,
  pay: (idempotencyKey: string) => boolean = () => true,
): BuiltShape {
  // A seeded budget stops the run mid-way (the campaign resumes it in the next process, without one).
  const opts = modelCalls === undefined ? {} : { budget: { modelCalls } };
  const wait = (key: string): number => 2 + Math.floor(keyed(seed, key) * 13); // 2-15 ms
  const model = (name: string, answer: (request: ModelRequest) => ScriptedTurn): ScriptedModel =>
    new ScriptedModel(
      [
        (request) => {
          const turn = answer(request);
          const delayMs = wait(`${name}:model:${request.messages.length}`);
          return typeof turn === 'string'
            ? { text: turn, delayMs }
            : typeof turn === 'object' && 'toolUses' in turn
              ? { ...turn, delayMs }
              : turn;
        },
      ],
      { loop: true, record: false },
    );
  const lookup = tool({
    name: 'lookup_order',
    description: 'Looks an order up.',
    inputSchema: z.object({ orderId: z.string() }),
    callback: async ({ orderId }, ctx) => {
      await sleep(wait(`lookup:${ctx.agent.name}:${ctx.toolUse.toolUseId}`));
      commit(`tool ${ctx.agent.name} ${ctx.toolUse.toolUseId}`); // the side effect, fsynced
      return `order ${orderId}: 80 EUR, charged twice`;
    },
  });
  // Needs a person's yes every time: the run pauses before it, and a kill can land while it waits.
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refunds an order.',
    inputSchema: z.object({ orderId: z.string() }),
    needsApproval: true,
    callback: async ({ orderId }, ctx) => {
      // The payment service deduplicates by idempotency key: a call cut by a kill and run again pays once.
      if (pay(ctx.idempotencyKey)) commit(`pay ${ctx.agent.name} ${orderId}`);
      await sleep(wait(`refund:${ctx.agent.name}:${ctx.toolUse.toolUseId}`));
      commit(`tool ${ctx.agent.name} ${ctx.toolUse.toolUseId}`);
      return 'refunded';
    },
  });
  /** Looks the order up once (and, with `approve`, then refunds it after approval), then answers `text` (or hands off when `handoff` is given). */
  const worker = (name: string, text: string, handoff?: string, approve = false): Agent =>
    new Agent({
      name,
      tools: approve ? [lookup, issueRefund] : [lookup],
      ...(name === 'billing' ? { messages: FEW_SHOT } : {}),
      model: model(name, (request) => {
        if (!lastIsToolResult(request) && toolResults(request) === 0)
          return { toolUses: [{ name: 'lookup_order', input: { orderId: '42' }, toolUseId: `${name}-lookup` }] };
        if (approve && toolResults(request) === 1)
          return { toolUses: [{ name: 'issue_refund', input: { orderId: '42' }, toolUseId: `${name}-refund` }] };
        return handoff ? { text, toolUses: [{ name: handoff, input: {}, toolUseId: `${name}-handoff` }] } : text;
      }),
    });
  const plain = (name: string, text: string): Agent => new Agent({ name, model: model(name, () => text) });

  if (shape === 'graph') {
    const route = seed % 2 === 0 ? 'billing' : 'refund';
    const routed =
      (to: string) =>
      (s: GraphState): boolean =>
        s.results['triage']?.text === `ROUTE: ${to}`;
    const workers = Array.from({ length: 8 }, (_, i) => `w${i}`);
    const b = new GraphBuilder().setId('desk').setSessionManager(sessionManager).setMaxNodeExecutions(40);
    b.addNode(plain('triage', `ROUTE: ${route}`), 'triage')
      .addNode(worker('billing', 'Billing: reversed.'), 'billing')
      .addNode(worker('refund', 'Refund: sent.', undefined, true), 'refund');
    b.addNode(plain('summary', 'Summary: done.'), 'summary')
      .addNode(plain('dispatch', 'Dispatched.'), 'dispatch')
      .addNode(plain('collect', 'Collected.'), 'collect');
    for (const w of workers) b.addNode(plain(w, `${w} done`), w).addEdge('dispatch', w);
    b.addEdge('triage', 'billing', routed('billing'))
      .addEdge('triage', 'refund', routed('refund'))
      .addEdge('billing', 'summary')
      .addEdge('refund', 'summary');
    b.addEdge('triage', 'dispatch').addEdge(workers, 'collect');
    // triage -> audit + notify (agents with tools) -> join -> report
    b.addNode(worker('audit', 'Audit: logged.'), 'audit')
      .addNode(worker('notify', 'Notify: customer told.'), 'notify')
      .addNode(plain('report', 'Report: filed.'), 'report');
    b.addEdge('triage', 'audit')
      .addEdge('triage', 'notify')
      .addEdge(['audit', 'notify'], 'report')
      .setEntryPoint('triage');
    const graph = b.build();
    graph.on('transition', (e) => commit(`${e.transition.from}>${e.transition.to}:${e.transition.kind}`));
    graph.on('nodeStart', (e) => commit(`start ${e.nodeId}`));
    return {
      async run() {
        // A run whose completion was stored before the kill is read back, not paid for again.
        const stored = await graph.lastResult();
        // A run paused for approval (here or in a killed process) is answered; else the task runs or resumes.
        const waiting = stored ? [] : await graph.pendingInterrupts();
        let r =
          stored ?? (await graph.invoke(waiting.length > 0 ? yes(waiting) : 'I was charged twice for order 42', opts));
        while (r.status === 'interrupted' && r.interrupts) r = await graph.invoke(yes(r.interrupts), opts);
        return {
          source: stored ? 'stored' : 'run',
          status: r.status,
          texts: Object.fromEntries(Object.entries(r.results).map(([k, v]) => [k, v.text])),
          transitions: r.transitions.map((t) => `${t.from}>${t.to}:${t.kind}`),
        };
      },
      close: () => sessionManager.close(),
    };
  }

  if (shape === 'swarm') {
    const refund = worker('refund', 'Refund: sent.', undefined, true);
    const billing = worker('billing', 'Billing: needs a refund.', 'transfer_to_refund');
    const triage = new Agent({
      name: 'triage',
      model: model('triage', () => ({
        text: 'To billing.',
        toolUses: [{ name: 'transfer_to_billing', input: {}, toolUseId: 'triage-handoff' }],
      })),
    });
    const swarm = new Swarm({ id: 'desk', nodes: [triage, billing, refund], nestHandoffHistory: true, sessionManager });
    swarm.on('transition', (e) => commit(`${e.transition.from}>${e.transition.to}:${e.transition.kind}`));
    swarm.on('nodeStart', (e) => commit(`start ${e.nodeId}`));
    return {
      async run() {
        const stored = await swarm.lastResult();
        const waiting = stored ? [] : await swarm.pendingInterrupts();
        let r =
          stored ?? (await swarm.invoke(waiting.length > 0 ? yes(waiting) : 'I was charged twice for order 42', opts));
        while (r.status === 'interrupted' && r.interrupts) r = await swarm.invoke(yes(r.interrupts), opts);
        return {
          source: stored ? 'stored' : 'run',
          status: r.status,
          texts: { final: r.text },
          transitions: r.transitions.map((t) => `${t.from}>${t.to}:${t.kind}`),
        };
      },
      close: () => sessionManager.close(),
    };
  }

  const agent = new Agent({
    name: 'desk',
    tools: [lookup, issueRefund],
    messages: FEW_SHOT,
    sessionManager,
    model: model('desk', (request) => {
      const done = toolResults(request);
      if (done < 3)
        return { toolUses: [{ name: 'lookup_order', input: { orderId: String(done) }, toolUseId: `desk-${done}` }] };
      if (done === 3)
        return { toolUses: [{ name: 'issue_refund', input: { orderId: '2' }, toolUseId: 'desk-refund' }] };
      return 'All three orders checked; order 2 refunded.';
    }),
  });
  agent.on('messageAdded', (e) => {
    const ids = e.message.content.flatMap((b) => ('toolResult' in b ? [b.toolResult.toolUseId] : []));
    commit(
      `message ${e.message.role} ${e.message.content.map((b) => Object.keys(b)[0]).join(',')}${ids.length > 0 ? ` ${ids.join(',')}` : ''}`,
    );
  });
  return {
    async run() {
      await agent.initialize();
      if (agent.interrupts.length > 0) {
        // Paused for approval when the last process was killed: answer from the session.
        let r = await agent.invoke(yes(agent.interrupts), opts);
        while (r.stopReason === 'interrupt') r = await agent.invoke(yes(r.interrupts), opts);
        return {
          status: r.stopReason === 'end_turn' ? 'completed' : r.stopReason,
          texts: { final: String(r) },
          transitions: [],
        };
      }
      const last = agent.messages.at(-1);
      // Finished when an answer follows the few-shot example (which itself ends with an answer).
      if (
        agent.messages.length > FEW_SHOT.length &&
        last?.role === 'assistant' &&
        !last.content.some((b) => 'toolUse' in b)
      ) {
        return {
          source: 'stored',
          status: 'completed',
          texts: { final: last.content.map((b) => ('text' in b ? b.text : '')).join('') },
          transitions: [],
        };
      }
      const asked = agent.messages.some(
        (m) => m.role === 'user' && m.content.some((b) => 'text' in b && b.text === 'Check my orders'),
      );
      let r = await agent.invoke(asked ? undefined : 'Check my orders', opts);
      while (r.stopReason === 'interrupt') r = await agent.invoke(yes(r.interrupts), opts);
      return {
        status: r.stopReason === 'end_turn' ? 'completed' : r.stopReason,
        texts: { final: String(r) },
        transitions: [],
      };
    },
    close: () => sessionManager.close(),
  };
}
