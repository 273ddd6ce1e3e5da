import { ConfigurationError } from '../../errors/configuration-errors.js';
import type { Message } from '../../types/messages.js';
import { forkSession } from '../history/fork.js';
import type { OrchestratorHistory } from '../history/history-reader.js';
import type { ForkOrigin, StepSnapshot } from '../history/history-types.js';
import { Recording, recordingOf, type RecordingData } from '../history/recording.js';
import type { SessionRepository } from '../session-repository.js';
import { checkForkEdit, type ForkEditSchema } from './fork-edit.js';
import type { RunJournal } from './run-journal.js';

/** What an orchestrator's `fork()` takes (`E`: its edit). */
export interface RunForkOptions<E> {
  /** The committed step to continue from (see `history()`). */
  step: number;
  /** The new session's id, in the same store (it must not exist). */
  to: string;
  /** Changes to make before the fork continues (validated; the original session is never written). */
  edit?: E;
}

/** A fork made by an orchestrator's `fork()`. */
export interface RunFork {
  /** The new session: build the orchestrator with a session manager for it and invoke it to continue. */
  sessionId: string;
  step: number;
  forkedFrom: ForkOrigin;
  /** What the original run did after the step: replay with `recording.model(key)` and `recording.guard(nodes)`. */
  recording: Recording;
}

/** An orchestrator's part of a fork: its edit schema and how an edit applies, and what each member did between two steps. */
export interface ForkPart<E> {
  schema: ForkEditSchema;
  /** Applies a checked edit to the snapshot the fork starts from; returns what changed, in words. */
  apply(snapshot: StepSnapshot, edit: E, history: OrchestratorHistory): string[] | Promise<string[]>;
  /** What each member (by key) did after `from` up to `to`: the messages it added then, in order. */
  later(from: StepSnapshot, to: StepSnapshot): Iterable<readonly [string, readonly Message[]]>;
}

/**
 * Forks an orchestrator's run at `options.step` into a new session of the same store: the edit is
 * checked first (by the orchestrator's schema), the original's later behaviour is recorded for
 * replays, and `forkSession` makes the new session (the original is only read).
 */
export async function forkRun<E>(journal: RunJournal, part: ForkPart<E>, options: RunForkOptions<E>): Promise<RunFork> {
  const history = await journalHistory(journal, 'fork()');
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('fork() takes { step, to, edit? }.');
  const edit = checkForkEdit<E>(options.edit, part.schema);
  const recording = new Recording(await recordingAfter(history, options.step, part.later));
  const fork = await forkSession(journal.repository as SessionRepository, {
    sessionId: history.sessionId,
    orchestratorId: journal.id,
    step: options.step,
    to: options.to,
    edit: (snapshot) => part.apply(snapshot, edit, history),
    entries: recording.toEntries(),
  });
  return { sessionId: fork.sessionId, step: fork.step, forkedFrom: fork.forkedFrom, recording };
}

/** How each orchestrator is given a session manager, as its messages say it. */
const GIVE_MANAGER: Record<string, string> = {
  graph: 'build the graph with setSessionManager(...)',
  swarm: 'give the Swarm a sessionManager',
};

/** The journal's history, for `what` (`history()`, `stateAt()`, `fork()`): a `ConfigurationError` without a session manager. */
export async function journalHistory(journal: RunJournal, what: string): Promise<OrchestratorHistory> {
  const history = await journal.history();
  if (!history)
    throw new ConfigurationError(
      `${what} reads the ${journal.type}'s session: ${GIVE_MANAGER[journal.type] ?? 'give it a session manager'}.`,
    );
  return history;
}

/** What the run of `step` did after it, up to its last committed step. */
async function recordingAfter(
  history: OrchestratorHistory,
  step: number,
  later: ForkPart<unknown>['later'],
): Promise<RecordingData> {
  const run = (await history.runs()).find((r) => r.firstStep <= step && step <= r.lastStep);
  if (!run || run.lastStep === step) return { outputs: {}, toolResults: {} };
  const [from, to] = await Promise.all([history.at(step), history.at(run.lastStep)]);
  return recordingOf(later(from, to));
}
