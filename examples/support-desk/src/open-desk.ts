/** Builds a desk of the chosen shape on a session in SQLite (default), files, S3 or PostgreSQL. */
import { resolve } from 'node:path';
import {
  RunBudget,
  type Budget,
  type MemoryStore,
  type RepositorySessionManager,
  type SessionManager,
} from '@skein/core';
import { Memory } from '@skein/memory';
import { FileMemoryStore, FileSessionManager } from '@skein/session-file';
import { agentDesk } from './shapes/agent-desk.js';
import { graphDesk } from './shapes/graph-desk.js';
import { swarmDesk } from './shapes/swarm-desk.js';
import { DeskStore } from './desk-store.js';
import type { Desk, DeskShape } from './desk.js';
import type { DeskModels } from './desk-models.js';

export interface OpenDeskOptions {
  shape: DeskShape;
  /** Where the desk's data and its SQLite (`desk.db`) or file (`sessions/`) sessions live. */
  dir: string;
  sessionId: string;
  /** Where sessions are stored; default `sqlite` (`<dir>/desk.db`). */
  store?: DeskStoreKind;
  /** `s3://bucket/prefix` for `store: 's3'` (credentials and region from the AWS environment). */
  s3?: string;
  /** `postgres://...` for `store: 'postgres'`. */
  postgres?: string;
  models: DeskModels;
  /** Limits for the whole conversation (this process), shared by every turn. */
  budget?: Budget;
  /** A refund agent served over A2A at this URL replaces the local one. */
  refundRemote?: string;
  /** Its key (`Authorization: Bearer <key>`). */
  refundRemoteKey?: string;
  /** Whose memory the desk reads and writes (the customer); default the session id. */
  customer?: string;
}

export type DeskStoreKind = 'sqlite' | 'file' | 's3' | 'postgres';

export interface OpenDesk {
  /** The desk on the current session manager (`reload` replaces it). */
  readonly desk: Desk;
  store: DeskStore;
  budget: RunBudget | undefined;
  /**
   * Gives up this process's claim on the conversation (its file lock or S3 lease) between turns, so
   * another desk process on the same `--session` can answer in it. The next turn claims it again, and
   * fails with `SessionConflictError` (writing nothing) if another process answered in between.
   */
  release(): Promise<void>;
  /** Builds the desk again on a new session manager, from what is stored (after a `SessionConflictError`). */
  reload(): Promise<void>;
  close(): Promise<void>;
}

/** Where the desk's sessions live, chosen once: a fresh manager per session id, and the store as `skein` opens it. */
export interface DeskSessions {
  /** A fresh session manager of `sessionId` (close it when done). */
  managerFor(sessionId: string): RepositorySessionManager;
  /** The store as the inspector's `openStore` (and `skein sessions`) take it. */
  inspectorSpec: string;
  /** Where, for the lines the desk prints. */
  where: string;
  /** A memory store beside the sessions (the same database, folder or prefix). */
  memoryStore(): MemoryStore;
}

/** The desk's store (the terminal desk and the web desk choose it here): SQLite by default, or files, S3, PostgreSQL. */
export async function openDeskSessions(
  options: Pick<OpenDeskOptions, 'dir' | 'store' | 's3' | 'postgres'>,
): Promise<DeskSessions> {
  const store = options.store ?? (options.s3 ? 's3' : 'sqlite');
  if (store === 'sqlite') {
    const { SqliteMemoryStore, SqliteSessionManager } = await import('@skein/session-sqlite');
    const path = resolve(options.dir, 'desk.db');
    return {
      managerFor: (sessionId) => new SqliteSessionManager({ sessionId, path }),
      inspectorSpec: `sqlite:${path}`,
      where: path,
      memoryStore: () => new SqliteMemoryStore({ path }),
    };
  }
  if (store === 'postgres') {
    const connectionString = options.postgres;
    if (!connectionString)
      throw new Error('--store postgres needs --postgres postgres://user@host:5432/db (or DATABASE_URL).');
    const { PostgresMemoryStore, PostgresSessionManager } = await import('@skein/session-postgres');
    return {
      managerFor: (sessionId) => new PostgresSessionManager({ sessionId, connectionString }),
      inspectorSpec: connectionString,
      where: connectionString.replace(/\/\/[^@/]*@/, '//'),
      memoryStore: () => new PostgresMemoryStore({ connectionString }),
    };
  }
  if (store === 's3') {
    if (!options.s3) throw new Error('--store s3 needs --s3 s3://bucket/prefix.');
    const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(options.s3);
    const bucket = match?.[1];
    if (!bucket) throw new Error(`--s3 takes s3://bucket/prefix (got ${options.s3}).`);
    const prefix = match[2] ?? '';
    const { S3MemoryStore, S3SessionManager } = await import('@skein/session-s3');
    return {
      managerFor: (sessionId) => new S3SessionManager({ sessionId, bucket, prefix }),
      inspectorSpec: options.s3,
      where: options.s3,
      memoryStore: () => new S3MemoryStore({ bucket, prefix }),
    };
  }
  const storageDir = `${options.dir}/sessions`;
  return {
    managerFor: (sessionId) => new FileSessionManager({ sessionId, storageDir }),
    inspectorSpec: storageDir,
    where: storageDir,
    memoryStore: () => new FileMemoryStore({ storageDir }),
  };
}

export async function openDesk(options: OpenDeskOptions): Promise<OpenDesk> {
  const store = new DeskStore(options.dir);
  const budget = options.budget ? new RunBudget(options.budget) : undefined;
  const sessions = await openDeskSessions(options);
  // The desk remembers each customer across conversations (`--session`s) in the sessions' store.
  const memory = new Memory({ store: sessions.memoryStore() });
  const customer = { resource: options.customer ?? options.sessionId, thread: `${options.sessionId}-${options.shape}` };
  const build = async (): Promise<{ desk: Desk; manager: RepositorySessionManager }> => {
    const manager = sessions.managerFor(`${options.sessionId}-${options.shape}`);
    const parts = {
      store,
      modelFor: options.models.modelFor,
      sessionManager: manager as SessionManager,
      budget,
      refundRemote: options.refundRemote,
      refundRemoteKey: options.refundRemoteKey,
      memory,
      customer,
    };
    const desk =
      options.shape === 'graph' ? graphDesk(parts) : options.shape === 'swarm' ? swarmDesk(parts) : agentDesk(parts);
    return { desk, manager };
  };
  let current = await build();
  return {
    get desk() {
      return current.desk;
    },
    store,
    budget,
    release: () => current.manager.release(),
    async reload() {
      await current.manager.close();
      current = await build();
    },
    async close() {
      await current.manager.close();
      await memory.close();
    },
  };
}
