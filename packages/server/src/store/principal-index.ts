/**
 * Which conversations a principal has: one small session per principal (`skein-index-<hash>`), an
 * entry per conversation. The store alone lists nothing, and several server processes share it, so
 * the list lives in the store too. Written through a session manager of its own that is closed at
 * once, so a conversation's turn never holds the index; a write that meets another writer retries.
 * Entries that arrive together are written together.
 */
import { createHash } from 'node:crypto';
import { SessionConflictError, type JsonObject, type SessionManager, type SessionRepository } from '@skein/core';
import type { TargetKind } from '../options.js';
import { closeQuietly, ensureRecord, repositoryOf } from './repository-of.js';

const INDEX_ID = 'skein-server-index';

/** One conversation of a principal. */
export interface IndexEntry {
  id: string;
  kind: TargetKind;
  name: string;
  createdAt: string;
  title: string;
  deleted?: boolean;
}

/** The session id of a principal's index. */
function indexSessionId(principal: string): string {
  return `skein-index-${createHash('sha256').update(principal).digest('hex').slice(0, 40)}`;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type Sessions = (id: string) => SessionManager;

/**
 * The index writes of one principal in this process: one batch at a time (they would only meet each
 * other's lock), and the entries that arrive while a batch is written go together in the next one
 * (one claim of the index, one transaction on a SQL store: a thousand new conversations at once are a
 * few writes, not a thousand in a row).
 */
interface Queue {
  writing: boolean;
  waiting: { entry: IndexEntry; done: (error?: unknown) => void }[];
}

/** Per store (its `sessions` function): the queues by index session, and the index sessions known to exist (the server never removes one), so a write skips those checks. */
const stores = new WeakMap<Sessions, { queues: Map<string, Queue>; known: Set<string> }>();

function storeOf(sessions: Sessions): { queues: Map<string, Queue>; known: Set<string> } {
  let store = stores.get(sessions);
  if (!store) {
    store = { queues: new Map(), known: new Set() };
    stores.set(sessions, store);
  }
  return store;
}

/** Adds (or, with `deleted`, removes) a conversation in `principal`'s index. */
export function writeIndexEntry(sessions: Sessions, principal: string, entry: IndexEntry): Promise<void> {
  const sessionId = indexSessionId(principal);
  const store = storeOf(sessions);
  let queue = store.queues.get(sessionId);
  if (!queue) {
    queue = { writing: false, waiting: [] };
    store.queues.set(sessionId, queue);
  }
  const written = new Promise<void>((resolve, reject) =>
    queue.waiting.push({ entry, done: (error) => (error === undefined ? resolve() : reject(error)) }),
  );
  if (!queue.writing) void drain(sessions, store, sessionId, queue);
  return written;
}

async function drain(
  sessions: Sessions,
  store: { queues: Map<string, Queue>; known: Set<string> },
  sessionId: string,
  queue: Queue,
): Promise<void> {
  queue.writing = true;
  while (queue.waiting.length > 0) {
    const batch = queue.waiting.splice(0);
    const error = await writeWithRetries(
      sessions,
      store.known,
      sessionId,
      batch.map((w) => w.entry),
    ).then(
      () => undefined,
      (failure: unknown) => failure ?? new Error('The index write failed.'),
    );
    for (const w of batch) w.done(error);
  }
  queue.writing = false;
  store.queues.delete(sessionId);
}

async function writeWithRetries(
  sessions: Sessions,
  known: Set<string>,
  sessionId: string,
  entries: readonly IndexEntry[],
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const assumed = known.has(sessionId);
    const manager = sessions(sessionId);
    try {
      const repo = repositoryOf(manager);
      await repo.beginView?.(sessionId);
      if (!assumed) await ensureRecord(repo, sessionId, INDEX_ID);
      await putEntries(repo, sessionId, entries);
      if (known.size > 10_000) known.clear();
      known.add(sessionId);
      return;
    } catch (error) {
      known.delete(sessionId);
      // Assumed to exist but gone (removed by hand): checked and made again on the next attempt.
      if ((!SessionConflictError.is(error) && !assumed) || attempt >= 8) throw error;
      await sleep(10 + Math.random() * 20 * 2 ** attempt);
    } finally {
      await closeQuietly(manager);
    }
  }
}

/** The entries in one write where the store can (a SQL store's transaction), else one after another. */
async function putEntries(repo: SessionRepository, sessionId: string, entries: readonly IndexEntry[]): Promise<void> {
  const node = (entry: IndexEntry): string => `c.${entry.id}`;
  if (repo.writeBatch && entries.length > 1) {
    const writes = entries.map((entry) => ({
      op: 'putNodeEntry' as const,
      multiAgentId: INDEX_ID,
      nodeId: node(entry),
      entry: entry as unknown as JsonObject,
    }));
    return repo.writeBatch(sessionId, writes);
  }
  for (const entry of entries)
    await repo.putNodeEntry(sessionId, INDEX_ID, node(entry), entry as unknown as JsonObject);
}

/** The conversations of `principal` (deleted ones left out), oldest first. Reads only. */
export async function readIndex(sessions: (id: string) => SessionManager, principal: string): Promise<IndexEntry[]> {
  const sessionId = indexSessionId(principal);
  const manager = sessions(sessionId);
  try {
    const repo = repositoryOf(manager);
    if (!(await repo.readMultiAgent(sessionId, INDEX_ID))) return [];
    const entries = await repo.readNodeEntries(sessionId, INDEX_ID);
    return Object.values(entries)
      .map((e) => e as unknown as IndexEntry)
      .filter((e) => e.deleted !== true)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  } finally {
    await closeQuietly(manager);
  }
}
