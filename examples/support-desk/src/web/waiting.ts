/**
 * What waits for a person across every conversation, for the supervisor page: each conversation of
 * the directory is read through the server's own route (`GET /v1/{kind}/desk/conversations/{id}`, as
 * the supervisor acting for its customer), so tenancy and the store's reading stay the server's.
 */
import type { JsonValue } from '@skein/core';
import type { DirectoryEntry } from './conversation-directory.js';
import { ON_BEHALF_HEADER } from './identity.js';

/** One request that waits for an answer. */
export interface WaitingItem {
  conversationId: string;
  customer: string;
  kind: string;
  interruptId: string;
  /** `approval` for a tool that needs a yes. */
  name: string;
  /** The tool and its input (`issue_refund`, `{ orderId, amountEur, reason }`), when it is a tool's approval. */
  tool?: string;
  input?: JsonValue;
  /** Who asks (the agent, or the node's path). */
  source: string;
  /** The customer's messages and the desk's answers so far. */
  turns: { prompt: string; text: string; status: string }[];
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
  status: string;
  inspect: string;
}

interface ConversationView {
  status: string;
  turns: { prompt?: string; text?: string; status: string }[];
  interrupts: { id: string; name: string; source: string; toolUse?: { name: string; input: JsonValue } }[];
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

/** Reads every conversation of `entries` (newest first) through `forward`, with the supervisor's `cookie`. */
export async function readWaiting(
  forward: Forward,
  base: string,
  entries: readonly DirectoryEntry[],
  cookie: string,
): Promise<{ waiting: WaitingItem[]; conversations: ConversationRow[] }> {
  const newest = [...entries].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const read = await Promise.all(newest.map((entry) => readView(forward, base, entry, cookie)));
  const waiting: WaitingItem[] = [];
  const conversations: ConversationRow[] = [];
  read.forEach(({ path, view }, i) => {
    const entry = newest[i] as DirectoryEntry;
    const inspect = `/inspect/${encodeURIComponent(entry.sessionId)}`;
    const { sessionId: _session, ...row } = entry;
    conversations.push({ ...row, status: view?.status ?? 'unknown', inspect });
    if (!view) return;
    const turns = view.turns
      .filter((t) => t.status !== 'running')
      .map((t) => ({ prompt: t.prompt ?? '', text: t.text ?? '', status: t.status }));
    for (const interrupt of view.interrupts) {
      waiting.push({
        conversationId: entry.id,
        customer: entry.customer,
        kind: entry.kind,
        interruptId: interrupt.id,
        name: interrupt.name,
        ...(interrupt.toolUse ? { tool: interrupt.toolUse.name, input: interrupt.toolUse.input } : {}),
        source: interrupt.source,
        turns,
        answers: `${path}/answers`,
        inspect,
      });
    }
  });
  return { waiting, conversations };
}
