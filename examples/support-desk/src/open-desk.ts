/** Builds a desk of the chosen shape on a session in SQLite (default), files, S3 or PostgreSQL. */
import { RunBudget, type Budget, type RepositorySessionManager, type SessionManager } from '@skein/core';
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

async function sessionManagerFor(options: OpenDeskOptions): Promise<RepositorySessionManager> {
  const sessionId = `${options.sessionId}-${options.shape}`;
  const store = options.store ?? (options.s3 ? 's3' : 'sqlite');
  if (store === 'sqlite') {
    const { SqliteSessionManager } = await import('@skein/session-sqlite');
    return new SqliteSessionManager({ sessionId, path: `${options.dir}/desk.db` });
  }
  if (store === 'postgres') {
    if (!options.postgres)
      throw new Error('--store postgres needs --postgres postgres://user@host:5432/db (or DATABASE_URL).');
    const { PostgresSessionManager } = await import('@skein/session-postgres');
    return new PostgresSessionManager({ sessionId, connectionString: options.postgres });
  }
  if (store === 's3') {
    if (!options.s3) throw new Error('--store s3 needs --s3 s3://bucket/prefix.');
    const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(options.s3);
    if (!match?.[1]) throw new Error(`--s3 takes s3://bucket/prefix (got ${options.s3}).`);
    const { S3SessionManager } = await import('@skein/session-s3');
    return new S3SessionManager({ sessionId, bucket: match[1], prefix: match[2] ?? '' });
  }
  return new FileSessionManager({ sessionId, storageDir: `${options.dir}/sessions` });
}

export async function openDesk(options: OpenDeskOptions): Promise<OpenDesk> {
  const store = new DeskStore(options.dir);
  const budget = options.budget ? new RunBudget(options.budget) : undefined;
  const build = async (): Promise<{ desk: Desk; manager: RepositorySessionManager }> => {
    const manager = await sessionManagerFor(options);
    const parts = {
      store,
      modelFor: options.models.modelFor,
      sessionManager: manager as SessionManager,
      budget,
      refundRemote: options.refundRemote,
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
    close: () => current.manager.close(),
  };
}
