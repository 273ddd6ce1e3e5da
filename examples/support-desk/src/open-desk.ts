/** Builds a desk of the chosen shape on a session in SQLite (default), files, S3 or PostgreSQL. */
import { RunBudget, type Budget, type SessionManager } from '@skein/core';
import { FileSessionManager } from '@skein/session-file';
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
}

export type DeskStoreKind = 'sqlite' | 'file' | 's3' | 'postgres';

export interface OpenDesk {
  desk: Desk;
  store: DeskStore;
  budget: RunBudget | undefined;
  close(): Promise<void>;
}

async function sessionManagerFor(
  options: OpenDeskOptions,
): Promise<{ manager: SessionManager; close(): Promise<void> }> {
  const sessionId = `${options.sessionId}-${options.shape}`;
  const store = options.store ?? (options.s3 ? 's3' : 'sqlite');
  if (store === 'sqlite') {
    const { SqliteSessionManager } = await import('@skein/session-sqlite');
    const manager = new SqliteSessionManager({ sessionId, path: `${options.dir}/desk.db` });
    return { manager, close: () => manager.close() };
  }
  if (store === 'postgres') {
    if (!options.postgres)
      throw new Error('--store postgres needs --postgres postgres://user@host:5432/db (or DATABASE_URL).');
    const { PostgresSessionManager } = await import('@skein/session-postgres');
    const manager = new PostgresSessionManager({ sessionId, connectionString: options.postgres });
    return { manager, close: () => manager.close() };
  }
  if (store === 's3') {
    if (!options.s3) throw new Error('--store s3 needs --s3 s3://bucket/prefix.');
    const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(options.s3);
    if (!match?.[1]) throw new Error(`--s3 takes s3://bucket/prefix (got ${options.s3}).`);
    const { S3SessionManager } = await import('@skein/session-s3');
    const manager = new S3SessionManager({ sessionId, bucket: match[1], prefix: match[2] ?? '' });
    return { manager, close: () => manager.close() };
  }
  const manager = new FileSessionManager({ sessionId, storageDir: `${options.dir}/sessions` });
  return { manager, close: () => manager.close() };
}

export async function openDesk(options: OpenDeskOptions): Promise<OpenDesk> {
  const store = new DeskStore(options.dir);
  const session = await sessionManagerFor(options);
  const budget = options.budget ? new RunBudget(options.budget) : undefined;
  const parts = {
    store,
    modelFor: options.models.modelFor,
    sessionManager: session.manager,
    budget,
    refundRemote: options.refundRemote,
  };
  const desk =
    options.shape === 'graph' ? graphDesk(parts) : options.shape === 'swarm' ? swarmDesk(parts) : agentDesk(parts);
  return { desk, store, budget, close: session.close };
}
