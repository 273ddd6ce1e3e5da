/**
 * Small shops to evaluate in tests, on scripted models that follow the conversation: one agent with
 * tools (a refund over 50 EUR needs approval), the same as a Graph (triage routes by its text) and
 * as a Swarm (triage hands off).
 */
import { z } from 'zod';
import { Agent, tool, type Message, type ModelRequest, type SessionManager } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder, type Graph } from '@skein/graph';
import { Swarm } from '@skein/swarm';

const textOf = (m: Message): string => m.content.map((b) => ('text' in b ? b.text : '')).join('');
/** The customer's words: the last user text of the request (a graph node sees `Original Task: ...`). */
const customer = (r: ModelRequest): string => {
  const last = r.messages.findLast((m) => m.role === 'user' && textOf(m) && !textOf(m).startsWith('[Transfer]'));
  return last
    ? (textOf(last)
        .replace(/^Original Task: /, '')
        .split('\n')[0] ?? '')
    : '';
};
/** The tool results that end the request (none when a swarm's transfer note ends it: that is a new turn). */
const lastResults = (r: ModelRequest): { ok: boolean; text: string }[] =>
  (textOf(r.messages.at(-1) ?? { role: 'user', content: [] }).includes('[Transfer]')
    ? []
    : (r.messages.at(-1)?.content ?? [])
  ).flatMap((b) =>
    'toolResult' in b
      ? [
          {
            ok: b.toolResult.status === 'success',
            text: b.toolResult.content.map((c) => ('text' in c ? c.text : JSON.stringify(c))).join(''),
          },
        ]
      : [],
  );
const topicOf = (line: string): 'refund' | 'billing' | 'other' =>
  /refund/i.test(line) ? 'refund' : /charge|invoice/i.test(line) ? 'billing' : 'other';

function refundPolicy(r: ModelRequest): ScriptedTurn {
  const [result] = lastResults(r);
  if (result) return result.ok ? `Refunded: ${result.text}` : `Not refunded: ${result.text}`;
  const order = /order (\d+)/.exec(customer(r))?.[1] ?? '0';
  const amount = Number(/(\d+) EUR/.exec(customer(r))?.[1] ?? 10);
  return { toolUses: [{ name: 'issue_refund', input: { orderId: order, amountEur: amount } }] };
}

function billingPolicy(r: ModelRequest): ScriptedTurn {
  const [result] = lastResults(r);
  if (result) return `Reversed the duplicate charge: ${result.text}`;
  const order = /order (\d+)/.exec(customer(r))?.[1] ?? '0';
  return { toolUses: [{ name: 'reverse_charge', input: { orderId: order } }] };
}

const model = (policy: (r: ModelRequest) => ScriptedTurn, delayMs = 0): ScriptedModel =>
  new ScriptedModel([(r) => ({ ...asAnswer(policy(r)), delayMs })], { loop: true, record: false });
const asAnswer = (t: ScriptedTurn): Exclude<ScriptedTurn, string | ((r: ModelRequest) => ScriptedTurn)> =>
  typeof t === 'string' ? { text: t } : typeof t === 'function' ? { text: '' } : t;

export interface ShopOptions {
  /** Each model call waits this long (to make runs overlap). */
  delayMs?: number;
  /** Triage sends refunds to billing (a planted routing bug). */
  misroute?: boolean;
}

function specialists(o: ShopOptions): { billing: Agent; refund: Agent } {
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refunds an order',
    inputSchema: z.object({ orderId: z.string(), amountEur: z.number() }),
    needsApproval: ({ amountEur }) => amountEur > 50,
    callback: ({ orderId, amountEur }) => `${amountEur} EUR for order ${orderId}`,
  });
  const reverseCharge = tool({
    name: 'reverse_charge',
    description: 'Reverses a duplicate charge',
    inputSchema: z.object({ orderId: z.string() }),
    callback: ({ orderId }) => `order ${orderId}`,
  });
  return {
    billing: new Agent({ name: 'billing', model: model(billingPolicy, o.delayMs), tools: [reverseCharge] }),
    refund: new Agent({ name: 'refund', model: model(refundPolicy, o.delayMs), tools: [issueRefund] }),
  };
}

const route = (line: string, o: ShopOptions): string => {
  const topic = topicOf(line);
  return o.misroute && topic === 'refund' ? 'billing' : topic;
};

/** Triage → billing | refund, routed by triage's `ROUTE: <topic>`. */
export function shopGraph(sessionManager: SessionManager | undefined, o: ShopOptions = {}): Graph {
  const { billing, refund } = specialists(o);
  const triage = new Agent({ name: 'triage', model: model((r) => `ROUTE: ${route(customer(r), o)}`, o.delayMs) });
  const routed = (to: string) => (s: { results: Record<string, { text: string } | undefined> }) =>
    s.results['triage']?.text === `ROUTE: ${to}`;
  const builder = new GraphBuilder()
    .addNode(triage)
    .addNode(billing)
    .addNode(refund)
    .addEdge('triage', 'billing', routed('billing'))
    .addEdge('triage', 'refund', routed('refund'));
  if (sessionManager) builder.setSessionManager(sessionManager);
  return builder.build();
}

/** Triage hands off to billing or refund, which answer. */
export function shopSwarm(sessionManager: SessionManager | undefined, o: ShopOptions = {}): Swarm {
  const { billing, refund } = specialists(o);
  const triage = new Agent({
    name: 'triage',
    model: model((r) => {
      const topic = route(customer(r), o);
      return topic === 'other' ? 'How can I help?' : { toolUses: [{ name: `transfer_to_${topic}`, input: {} }] };
    }, o.delayMs),
  });
  return new Swarm({ nodes: [triage, billing, refund], ...(sessionManager ? { sessionManager } : {}) });
}

/** One agent with the refund and billing specialists as tools. */
export function shopAgent(sessionManager: SessionManager | undefined, o: ShopOptions = {}): Agent {
  const { billing, refund } = specialists(o);
  const desk = new Agent({
    name: 'desk',
    model: model((r) => {
      const [result] = lastResults(r);
      if (result) return result.text;
      const topic = route(customer(r), o);
      return topic === 'other' ? 'How can I help?' : { toolUses: [{ name: topic, input: { input: customer(r) } }] };
    }, o.delayMs),
    tools: [billing.asTool({ name: 'billing' }), refund.asTool({ name: 'refund' })],
    ...(sessionManager ? { sessionManager } : {}),
  });
  return desk;
}
