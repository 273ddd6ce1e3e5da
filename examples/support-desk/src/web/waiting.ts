/**
 * What waits for a person across every conversation, for the supervisor page: each conversation of
 * the directory is read through the server's own route (`GET /v1/{kind}/desk/conversations/{id}`, as
 * the supervisor acting for its customer), so tenancy and the store's reading stay the server's. Each
 * request that waits comes with the order it is about, from the shop's data (who bought what, what
 * was paid and refunded), and the conversation so far (the page shows it as the customer sees it).
 */
import type { JsonValue } from '@skein/core';
import type { DeskStore } from '../desk-store.js';
import type { ConversationView } from './client/stored-story.js';
import type { DirectoryEntry } from './conversation-directory.js';
import { ON_BEHALF_HEADER } from './identity.js';

/** The order a request is about, as the shop knows it. */
interface OrderFacts {
  id: string;
  item: string;
  /** What was paid, in EUR. */
  paidEur: number;
  /** What was refunded so far, in EUR. */
  refundedEur: number;
  /** The shop's customer who bought it (name and id), when known. */
  buyer?: { id: string; name: string };
}

/** One request that waits for an answer. */
export interface WaitingItem {
  conversationId: string;
  /** The signed-in customer whose conversation it is. */
  customer: string;
  kind: string;
  /** The conversation's first message. */
  title: string;
  interruptId: string;
  /** `approval` for a tool that needs a yes. */
  name: string;
  /** The tool and its input (`issue_refund`, `{ orderId, amountEur, reason }`), when it is a tool's approval. */
  tool?: string;
  input?: JsonValue;
  /** Who asks (the agent, or the node's path). */
  source: string;
  /** The order it is about, when the request names one the shop has. */
  order?: OrderFacts;
  /** The conversation so far, as stored (the page shows it as the customer sees it). */
  view: ConversationView;
  /** Where the answer goes (`POST`, with `x-desk-customer`). */
  answers: string;
  /** The conversation's inspector page. */
  inspect: string;
}

/** A conversation as the supervisor page lists it. */
export interface ConversationRow {
  id: string;
  customer: string;
  kind: string;
  createdAt: string;
  /** The first message ('' before it is stored). */
  title: string;
  status: string;
  inspect: string;
}

type Forward = (request: Request) => Promise<Response>;

async function readView(forward: Forward, base: string, entry: DirectoryEntry, cookie: string) {
  const path = `/v1/${entry.kind}/desk/conversations/${encodeURIComponent(entry.id)}`;
  const response = await forward(
    new Request(new URL(path, base), { headers: { cookie, [ON_BEHALF_HEADER]: entry.customer } }),
  );
  if (!response.ok) {
    await response.body?.cancel();
    return { path, view: undefined };
  }
  return { path, view: (await response.json()) as ConversationView };
}

/** The shop's facts about order `orderId`, if it has one. */
async function orderFacts(shop: DeskStore, orderId: unknown): Promise<OrderFacts | undefined> {
  if (typeof orderId !== 'string') return undefined;
  const order = await shop.order(orderId);
  if (!order) return undefined;
  const refundedEur = (await shop.refunds(orderId)).reduce((sum, r) => sum + r.amountEur, 0);
  return {
    id: order.id,
    item: order.item,
    paidEur: order.amountEur,
    refundedEur,
    ...(order.customer ? { buyer: { id: order.customer.id, name: order.customer.name } } : {}),
  };
}

/** Reads every conversation of `entries` (newest first) through `forward`, with the supervisor's `cookie`; orders from `shop`. */
export async function readWaiting(
  forward: Forward,
  base: string,
  entries: readonly DirectoryEntry[],
  cookie: string,
  shop?: DeskStore,
): Promise<{ waiting: WaitingItem[]; conversations: ConversationRow[] }> {
  const newest = [...entries].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const read = await Promise.all(newest.map((entry) => readView(forward, base, entry, cookie)));
  const waiting: WaitingItem[] = [];
  const conversations: ConversationRow[] = [];
  for (const [i, { path, view }] of read.entries()) {
    const entry = newest[i] as DirectoryEntry;
    const inspect = `/inspect/${encodeURIComponent(entry.sessionId)}`;
    const title = view?.turns[0]?.prompt ?? '';
    const { sessionId: _session, ...row } = entry;
    conversations.push({ ...row, title, status: view?.status ?? 'unknown', inspect });
    if (!view) continue;
    for (const interrupt of view.interrupts) {
      const input = interrupt.toolUse?.input as JsonValue | undefined;
      const orderId =
        typeof input === 'object' && input !== null && !Array.isArray(input) ? input['orderId'] : undefined;
      const order = shop ? await orderFacts(shop, orderId) : undefined;
      waiting.push({
        conversationId: entry.id,
        customer: entry.customer,
        kind: entry.kind,
        title,
        interruptId: interrupt.id,
        name: interrupt.name,
        ...(interrupt.toolUse ? { tool: interrupt.toolUse.name, input: input ?? null } : {}),
        source: interrupt.source ?? '',
        ...(order ? { order } : {}),
        view,
        answers: `${path}/answers`,
        inspect,
      });
    }
  }
  return { waiting, conversations };
}
