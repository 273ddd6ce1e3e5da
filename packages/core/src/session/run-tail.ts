import type { JsonObject } from '../types/json.js';
import type { SessionRepository } from './session-repository.js';
import { nowIso, type NodeTransition } from './session-types.js';

/** A transition to record; `seq` and `at` are filled in. */
export type NewTransition = Omit<NodeTransition, 'seq' | 'at'>;

/**
 * Numbers `transitions` from `first` on and stamps them with the time: the one place where an
 * orchestrator's transitions get their `seq` (with a session or without one).
 */
export function numberTransitions(first: number, transitions: readonly NewTransition[]): NodeTransition[] {
  const at = nowIso();
  return transitions.map((t, i) => ({ seq: first + i, ...t, at }));
}

/** A transition as the state document carries it (numbered again when appended): every field but `seq` and `at`. */
function tailEntry(t: NewTransition): JsonObject {
  return {
    from: t.from,
    to: t.to,
    kind: t.kind,
    reason: t.reason,
    ...(t.details ? { details: t.details } : {}),
  };
}

/**
 * The run's state document with its commit-point envelope: how many transitions the step commits in
 * all (`transitionCount`) and the step's own (`lastTransitions`), which are appended after the
 * document is written; a crash in between leaves them to {@link cutTail}.
 */
export function withRunTail(state: JsonObject, committed: number, transitions: readonly NewTransition[]): JsonObject {
  return { ...state, transitionCount: committed, lastTransitions: transitions.map(tailEntry) };
}

/**
 * The committed transitions a crash cut off: those the state document counts and carries but the
 * stored history (`stored` long) lacks, `details` included. Empty for a document without an envelope.
 */
export function cutTail(state: JsonObject, stored: number): NewTransition[] {
  const committed = state['transitionCount'];
  const tail = state['lastTransitions'];
  if (typeof committed !== 'number' || !Array.isArray(tail) || stored >= committed) return [];
  const missing = tail.slice(tail.length - (committed - stored)) as unknown as NewTransition[];
  return missing.map((t) => tailEntry(t) as unknown as NewTransition);
}

/**
 * The transitions a committed run holds, as readers must see them: those stored, then those its state
 * document commits but a crash cut before they were appended (numbered after the stored ones, stamped
 * `at`, the document's time). What a writer's `repairTail` would append, without writing anything.
 */
export function committedTransitions(
  state: JsonObject,
  stored: readonly NodeTransition[],
  at: string,
): NodeTransition[] {
  const missing = cutTail(state, stored.length);
  return missing.length === 0
    ? [...stored]
    : [...stored, ...missing.map((t, i) => ({ seq: stored.length + i, ...t, at }))];
}

/**
 * Reads an orchestrator's transitions as committed (see {@link committedTransitions}): every reader
 * (an inspector, a copy, a server's view) reads them through this, so none shows a committed step
 * without its last transitions. Reads only.
 */
export async function readCommittedTransitions(
  repo: SessionRepository,
  sessionId: string,
  multiAgentId: string,
): Promise<NodeTransition[]> {
  const [doc, stored] = await Promise.all([
    repo.readMultiAgent(sessionId, multiAgentId),
    repo.readTransitions(sessionId, multiAgentId),
  ]);
  return doc ? committedTransitions(doc.state, stored, doc.updated_at) : stored;
}
