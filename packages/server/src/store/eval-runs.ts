/**
 * A principal's eval runs of one target: one small session per principal and target
 * (`skein-evals-<hash>`), an entry per run (its summary and what changed against the run before).
 * In the server's store, like the principal's index, so the runs outlive the process and every
 * server process sharing the store sees them. Written through a session manager of its own, closed
 * at once; a write that meets another writer retries.
 */
import { createHash } from 'node:crypto';
import { SessionConflictError, type JsonObject, type SessionManager } from '@skein/core';
import type { EvalSummary } from '@skein/evals';
import type { TargetKind } from '../options.js';
import { closeQuietly, ensureRecord, repositoryOf } from './repository-of.js';

const RUNS_ID = 'skein-server-evals';

/** What changed against the previous run of the same target. */
export interface EvalChanges {
  /** The previous run's id. */
  previous: string;
  /** Cases that did not pass before and pass now. */
  fixed: string[];
  /** Cases that passed before and do not now. */
  newlyFailing: string[];
  /** Cases only in this run / only in the previous one. */
  added: string[];
  removed: string[];
  /** Cases that got worse on some scorer (a lower score or pass rate), passing or not. */
  regressions: string[];
  /** Cases that got better and worse on nothing. */
  improvements: string[];
}

/** One stored eval run. */
export interface EvalRunRecord {
  /** The run's id; each case's conversation id starts with `<evaluation>.`. */
  id: string;
  /** `evaluate()`'s name of the run (the prefix of its case conversations). */
  evaluation: string;
  kind: TargetKind;
  name: string;
  startedAt: string;
  endedAt: string;
  /** The cases the request asked for (by tag or id), when it narrowed them. */
  only?: { tags?: string[]; cases?: string[] };
  summary: EvalSummary;
  /** Against the previous run (absent on the first). */
  changes?: EvalChanges;
}

type Sessions = (id: string) => SessionManager;

/** The session id of `owner`'s eval runs of `kind/name`. */
function runsSessionId(owner: string, kind: TargetKind, name: string): string {
  const key = JSON.stringify([owner, kind, name]);
  return `skein-evals-${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}

/** `owner`'s runs of `kind/name`, oldest first. Reads only. */
export async function readEvalRuns(
  sessions: Sessions,
  owner: string,
  kind: TargetKind,
  name: string,
): Promise<EvalRunRecord[]> {
  const sessionId = runsSessionId(owner, kind, name);
  const manager = sessions(sessionId);
  try {
    const repo = repositoryOf(manager);
    if (!(await repo.readMultiAgent(sessionId, RUNS_ID))) return [];
    const entries = await repo.readNodeEntries(sessionId, RUNS_ID);
    return Object.keys(entries)
      .sort()
      .map((k) => entries[k] as unknown as EvalRunRecord);
  } finally {
    await closeQuietly(manager);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Stores `run` under `owner` (its entry key sorts by start time). */
export async function writeEvalRun(sessions: Sessions, owner: string, run: EvalRunRecord): Promise<void> {
  const sessionId = runsSessionId(owner, run.kind, run.name);
  for (let attempt = 0; ; attempt++) {
    const manager = sessions(sessionId);
    try {
      const repo = repositoryOf(manager);
      await ensureRecord(repo, sessionId, RUNS_ID);
      await repo.putNodeEntry(
        sessionId,
        RUNS_ID,
        `run.${run.startedAt.replace(/\D/g, '')}.${run.id}`,
        run as unknown as JsonObject,
      );
      return;
    } catch (error) {
      if (!SessionConflictError.is(error) || attempt >= 8) throw error;
      await sleep(10 + Math.random() * 20 * 2 ** attempt);
    } finally {
      await closeQuietly(manager);
    }
  }
}
