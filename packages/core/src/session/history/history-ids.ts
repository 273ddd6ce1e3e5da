/**
 * Where an orchestrator's history lives in its session: beside its own record `<id>`, an index
 * record `<id>@history` (the last run's number, a fork's origin, archived messages) and one record
 * per run `<id>@run-000001` whose node entries are the run's steps (`step-000000042`). Separate
 * records, so that clearing a finished run (which deletes `<id>`) keeps its history, and keeping the
 * last N runs deletes whole records.
 */
export const historyIndexId = (id: string): string => `${id}@history`;

/** The record of run `run` of orchestrator `id`. */
export const historyRunId = (id: string, run: number): string => `${id}@run-${String(run).padStart(6, '0')}`;

/** The entry of step `step` in its run's record. */
export const stepEntryId = (step: number): string => `step-${String(step).padStart(9, '0')}`;

/** The step number of a step entry id (`undefined` for other entries). */
export function stepOfEntry(entryId: string): number | undefined {
  const match = /^step-(\d+)$/.exec(entryId);
  return match ? Number(match[1]) : undefined;
}

/** The entry of `storeId`'s messages archived after step `step` (before a reset removed them). */
export const archiveEntryId = (step: number, storeId: string): string =>
  `archive-${String(step).padStart(9, '0')}-${storeId}`;

/**
 * True for the records kept beside an orchestrator's own: its history (`<id>@history`, `<id>@run-...`)
 * and its run document (`<id>@run`). Readers list them under their orchestrator, not as orchestrators.
 */
export function isSideRecord(multiAgentId: string): boolean {
  return /@(history|run|run-\d+)$/.test(multiAgentId);
}

/** The record kinds, as `SessionMultiAgent.type`. */
export const HISTORY_TYPE = 'history';
export const HISTORY_RUN_TYPE = 'history-run';
