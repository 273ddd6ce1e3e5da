/**
 * Which conversations a principal has: one small session per principal (`skein-index-<hash>`), an
 * entry per conversation. The store alone lists nothing, and several server processes share it, so
 * the list lives in the store too. Written through a session manager of its own that is closed at
 * once, so a conversation's turn never holds the index; a write that meets another writer retries.
 */
import { createHash } from 'node:crypto';
import {
  SessionConflictError,
  nowIso,
  type JsonObject,
  type SessionManager,
  type SessionRepository,
} from '@skein/core';
import type { TargetKind } from '../options.js';
import { closeQuietly, ensureSession, repositoryOf } from './repository-of.js';

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

/** Per store (its `sessions` function): index writes of one principal in this process one after another (they would only meet each other's lock), and the index sessions known to exist (the server never removes one), so a write skips those checks. */
const stores = new WeakMap<Sessions, { queues: Map<string, Promise<void>>; known: Set<string> }>();

function storeOf(sessions: Sessions): { queues: Map<string, Promise<void>>; known: Set<string> } {
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
  const { queues, known } = storeOf(sessions);
  const previous = queues.get(sessionId) ?? Promise.resolve();
  const next = previous.then(() => writeWithRetries(sessions, known, sessionId, entry));
  const settled = next.catch(() => undefined);
  queues.set(sessionId, settled);
  void settled.then(() => {
    if (queues.get(sessionId) === settled) queues.delete(sessionId);
  });
  return next;
}

async function writeWithRetries(
  sessions: Sessions,
  known: Set<string>,
  sessionId: string,
  entry: IndexEntry,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const assumed = known.has(sessionId);
    const manager = sessions(sessionId);
    try {
      const repo = repositoryOf(manager);
      await repo.beginView?.(sessionId);
      if (!assumed) await ensureIndex(repo, sessionId);
      await repo.putNodeEntry(sessionId, INDEX_ID, `c.${entry.id}`, entry as unknown as JsonObject);
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

async function ensureIndex(repo: SessionRepository, sessionId: string): Promise<void> {
  await ensureSession(repo, sessionId, 'MULTI_AGENT');
  if (!(await repo.readMultiAgent(sessionId, INDEX_ID))) {
    const now = nowIso();
    await repo
      .createMultiAgent(sessionId, { id: INDEX_ID, type: INDEX_ID, state: {}, created_at: now, updated_at: now })
      .catch((error: unknown) => {
        if (!SessionConflictError.is(error)) throw error;
      });
  }
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
