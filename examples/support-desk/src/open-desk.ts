/** Builds a desk of the chosen shape on a file or S3 session. */
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
  /** Where the desk's data and (without `s3`) its sessions live. */
  dir: string;
  sessionId: string;
  /** `s3://bucket/prefix`: sessions in S3 (credentials and region from the AWS environment). */
  s3?: string;
  models: DeskModels;
  /** Limits for the whole conversation (this process), shared by every turn. */
  budget?: Budget;
  /** A refund agent served over A2A at this URL replaces the local one. */
  refundRemote?: string;
}

export interface OpenDesk {
  desk: Desk;
  store: DeskStore;
  budget: RunBudget | undefined;
  close(): Promise<void>;
}

/** Where the desk's sessions live, chosen once: a fresh manager per session id, and the store as `skein` opens it. */
export interface DeskSessions {
  /** A fresh session manager of `sessionId` (close it when done). */
  managerFor(sessionId: string): SessionManager;
  /** The store as the inspector's `openStore` takes it: a directory or `s3://bucket/prefix`. */
  inspectorSpec: string;
  /** Where, for the lines the desk prints. */
  where: string;
}

/** The desk's store: files in `<dir>/sessions`, or S3 with `s3` (the terminal desk and the web desk choose it here). */
export async function openDeskSessions(options: Pick<OpenDeskOptions, 'dir' | 's3'>): Promise<DeskSessions> {
  if (options.s3) {
    const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(options.s3);
    const bucket = match?.[1];
    if (!bucket) throw new Error(`--s3 takes s3://bucket/prefix (got ${options.s3}).`);
    const { S3SessionManager } = await import('@skein/session-s3');
    const prefix = match[2] ?? '';
    return {
      managerFor: (sessionId) => new S3SessionManager({ sessionId, bucket, prefix }),
      inspectorSpec: options.s3,
      where: options.s3,
    };
  }
  const storageDir = `${options.dir}/sessions`;
  return {
    managerFor: (sessionId) => new FileSessionManager({ sessionId, storageDir }),
    inspectorSpec: storageDir,
    where: storageDir,
  };
}

async function sessionManagerFor(
  options: OpenDeskOptions,
): Promise<{ manager: SessionManager; close(): Promise<void> }> {
  const manager = (await openDeskSessions(options)).managerFor(`${options.sessionId}-${options.shape}`);
  return {
    manager,
    close: async () => {
      await manager.close?.();
    },
  };
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
