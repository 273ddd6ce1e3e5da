import {
  Agent,
  RepositorySessionManager,
  tool,
  type Message,
  type Model,
  type ModelRequest,
  type SessionRepository,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { z } from 'zod';
import { GraphBuilder, type Graph, type GraphState } from '../index.js';

/** The desk's roles. */
export type Role = 'triage' | 'billing' | 'refund' | 'summary';

const textOf = (m: Message | undefined): string => (m?.content ?? []).map((b) => ('text' in b ? b.text : '')).join('');
const answered = (r: ModelRequest): boolean => r.messages.at(-1)?.content.some((b) => 'toolResult' in b) ?? false;

/** Scripted desk models: answers as pure functions of the request (a replay sees the same answers). */
function deskModels(): Record<Role, ScriptedModel> {
  const model = (answer: (r: ModelRequest) => ScriptedTurn): ScriptedModel =>
    new ScriptedModel([answer], { loop: true });
  return {
    triage: model((r) => (/refund/i.test(textOf(r.messages.at(-1))) ? 'ROUTE: refund' : 'ROUTE: billing')),
    billing: model((r) =>
      answered(r)
        ? 'Billing: the duplicate charge is reversed.'
        : { toolUses: [{ name: 'lookup', input: { order: '42' } }] },
    ),
    refund: model((r) =>
      answered(r) ? 'Refund: order 42 is refunded.' : { toolUses: [{ name: 'refund', input: { order: '42' } }] },
    ),
    summary: model((r) => `Summary: ${/From refund/.test(textOf(r.messages.at(-1))) ? 'refunded' : 'billing fixed'}.`),
  };
}

/** What the desk's tools did (a refund is a side effect that must never repeat silently). */
export interface DeskEffects {
  refunds: number;
  lookups: number;
}

const routedTo = (topic: string) => (state: GraphState) =>
  new RegExp(`ROUTE:\\s*${topic}`, 'i').test(state.results['triage']?.text ?? '');

/**
 * The desk graph: triage routes to billing or refund (the refund needs approval), then a summary.
 * `models` default to `deskModels()`.
 */
export function deskGraph(
  repository: SessionRepository,
  sessionId: string,
  effects: DeskEffects,
  models: Partial<Record<Role, Model>> = {},
  history?: Parameters<GraphBuilder['setHistory']>[0],
): Graph {
  const scripted = deskModels();
  const lookup = tool({
    name: 'lookup',
    description: 'looks an order up',
    inputSchema: z.object({ order: z.string() }),
    callback: ({ order }) => `order ${order}: charged twice (${++effects.lookups})`,
  });
  const refund = tool({
    name: 'refund',
    description: 'refunds an order',
    inputSchema: z.object({ order: z.string() }),
    needsApproval: true,
    callback: ({ order }) => `refunded ${order} (${++effects.refunds})`,
  });
  const agent = (name: Role, tools: ReturnType<typeof tool>[] = []) =>
    new Agent({ name, model: models[name] ?? scripted[name], tools, retryStrategy: null });
  const builder = new GraphBuilder()
    .setId('desk')
    .addNode(agent('triage'))
    .addNode(agent('billing', [lookup]))
    .addNode(agent('refund', [refund]))
    .addNode(agent('summary'))
    .addEdge('triage', 'billing', routedTo('billing'))
    .addEdge('triage', 'refund', routedTo('refund'))
    .addEdge('billing', 'summary')
    .addEdge('refund', 'summary')
    .setSessionManager(new RepositorySessionManager({ sessionId, repository }));
  if (history) builder.setHistory(history);
  return builder.build();
}

/** Approves everything the graph waits for, until it stops waiting. */
export async function approveAll(graph: Graph, result: Awaited<ReturnType<Graph['invoke']>>) {
  let current = result;
  while (current.status === 'interrupted' && current.interrupts) {
    current = await graph.invoke(
      current.interrupts.map((i) => ({ interruptResponse: { interruptId: i.id, response: { approved: true } } })),
    );
  }
  return current;
}
