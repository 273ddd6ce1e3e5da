/** Reads a stored evaluation back: its summary and its finished runs, from `results.jsonl` (or the directory holding it). */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EvalResultsError } from '../errors.js';
import { readLog, type CaseResult, type EvalHeader } from '../runner/results-log.js';
import { runKey, viewLog } from './log-view.js';
import { summarize, type EvalSummary } from './summarize.js';

export interface StoredEvaluation {
  file: string;
  header: EvalHeader;
  summary: EvalSummary;
  /** The finished runs, in case order. */
  results: CaseResult[];
}

/** Loads `path`: a results file, or a directory with `results.jsonl` (what `evaluate({ out })` writes). */
export async function loadResults(path: string): Promise<StoredEvaluation> {
  const isDir = await stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
  const file = isDir ? join(path, 'results.jsonl') : path;
  const lines = await readLog(file);
  if (lines.length === 0)
    throw new EvalResultsError(`${file} does not exist or is empty; run the evaluation first.`, file);
  const view = viewLog(lines, file);
  const results = view.header.cases.flatMap((c) =>
    Array.from({ length: view.header.repeats }, (_, r) => view.done.get(runKey(c.id, r))).filter(
      (x): x is CaseResult => !!x,
    ),
  );
  return { file, header: view.header, summary: summarize(view), results };
}
