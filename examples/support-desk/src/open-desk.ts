/** Builds a desk of the chosen shape on a file or S3 session. */
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
  /** Where the desk's data and (without `s3`) its sessions live. */
  dir: string;
  sessionId: string;
  /** `s3://bucket/prefix`: sessions in S3 (credentials and region from the AWS environment). */
  s3?: string;
  models: DeskModels;
  /** Limits for the whole conversation (this process), shared by every turn. */
  budget?: Budget;
}

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

function sessionManagerFor(options: OpenDeskOptions): Promise<FileSessionManager | RepositorySessionManager> {
  const sessionId = `${options.sessionId}-${options.shape}`;
  if (options.s3) {
    const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(options.s3);
    if (!match?.[1]) throw new Error(`--s3 takes s3://bucket/prefix (got ${options.s3}).`);
    const [bucket, prefix] = [match[1], match[2] ?? ''];
    return import('@skein/session-s3').then(
      ({ S3SessionManager }) => new S3SessionManager({ sessionId, bucket, prefix }),
    );
  }
  return Promise.resolve(new FileSessionManager({ sessionId, storageDir: `${options.dir}/sessions` }));
}

export async function openDesk(options: OpenDeskOptions): Promise<OpenDesk> {
  const store = new DeskStore(options.dir);
  const budget = options.budget ? new RunBudget(options.budget) : undefined;
  const build = async (): Promise<{ desk: Desk; manager: RepositorySessionManager }> => {
    const manager = await sessionManagerFor(options);
    const parts = { store, modelFor: options.models.modelFor, sessionManager: manager as SessionManager, budget };
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
