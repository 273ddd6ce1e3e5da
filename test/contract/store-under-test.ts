import type { SessionRepository } from '@skein/core';

/** One storage under test: a fresh, empty place to keep sessions (a directory, a bucket prefix, a database). */
export interface Storage {
  /** A new repository on this storage: a second call is a second writer (another process would be the same). */
  repository(): SessionRepository;
  /** Makes a stored message not valid JSON (absent for stores that keep no bytes: in-memory). */
  corruptMessage?(sessionId: string, agentId: string, messageId: number): Promise<void>;
  /** Removes one stored node entry behind the repository's back (absent for in-memory). */
  removeNodeEntry?(sessionId: string, multiAgentId: string, nodeId: string): Promise<void>;
  /** Closes every repository opened here and removes the storage. */
  dispose(): Promise<void>;
}

/** A store the contract suite runs: its name and how to make a fresh storage. */
export interface StoreUnderTest {
  name: string;
  /** Each test gets its own storage. */
  fresh(): Promise<Storage>;
  /** Several repositories on one storage are several writers of it (false for the in-memory store: each is its own storage). */
  sharedWriters: boolean;
  /** Per-test timeout (real servers are slower). */
  timeoutMs?: number;
}

/** Closes a repository whatever its kind (close(), else destroy()). */
export async function closeRepository(repository: SessionRepository): Promise<void> {
  const r = repository as { close?: () => Promise<void>; destroy?: () => void };
  if (typeof r.close === 'function') await r.close();
  else if (typeof r.destroy === 'function') r.destroy();
}

/** A storage whose repositories are tracked and closed by `dispose`. */
export function trackedStorage(
  make: () => SessionRepository,
  cleanup: () => Promise<void>,
  corruptMessage?: Storage['corruptMessage'],
  removeNodeEntry?: Storage['removeNodeEntry'],
): Storage {
  const opened: SessionRepository[] = [];
  return {
    repository() {
      const r = make();
      opened.push(r);
      return r;
    },
    ...(corruptMessage ? { corruptMessage } : {}),
    ...(removeNodeEntry ? { removeNodeEntry } : {}),
    async dispose() {
      await Promise.all(opened.map((r) => closeRepository(r).catch(() => undefined)));
      await cleanup();
    },
  };
}
