/** What a results log says: its latest header and, per case and repeat, the run that counts (pure). */
import { EvalResultsError } from '../errors.js';
import type { CaseResult, EvalHeader, LogLine, StartLine } from '../runner/results-log.js';

/** Statuses of runs the evaluation did not finish (its budget ran out, it was cancelled): they run again on resume. */
const UNFINISHED = new Set(['budgetExceeded', 'cancelled']);

export const runKey = (caseId: string, repeat: number): string => `${caseId}#${repeat}`;

export interface LogView {
  header: EvalHeader;
  /** The finished run of each case and repeat (of the case as the header has it, since the last start over), by `runKey`. */
  done: Map<string, CaseResult>;
  /** How many times each case and repeat was started (over every start of the evaluation). */
  attempts: Map<string, number>;
}

export function viewLog(lines: readonly LogLine[], file: string): LogView {
  let header: EvalHeader | undefined;
  let from = 0; // the last start over: runs before it do not count
  lines.forEach((line, i) => {
    if (line.type !== 'evaluation') return;
    header = line;
    if (line.fresh !== false) from = i;
  });
  if (!header) throw new EvalResultsError(`${file} holds no evaluation.`, file);
  const hashes = new Map(header.cases.map((c) => [c.id, c.hash]));
  const done = new Map<string, CaseResult>();
  const attempts = new Map<string, number>();
  for (const [i, line] of lines.entries()) {
    if (line.type === 'start') {
      const key = runKey((line as StartLine).caseId, line.repeat);
      attempts.set(key, Math.max(attempts.get(key) ?? 0, line.attempt));
    } else if (
      line.type === 'result' &&
      i > from &&
      hashes.get(line.caseId) === line.hash &&
      !UNFINISHED.has(line.status)
    ) {
      if (line.repeat < header.repeats) done.set(runKey(line.caseId, line.repeat), line);
    }
  }
  return { header, done, attempts };
}
