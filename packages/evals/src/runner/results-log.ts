/**
 * The results file: JSONL, only ever appended to. A header per start (the first run, every resume,
 * every start over), a `start` line before each run of a case, and a `result` line once it is scored:
 * the result line is the run's commit point. A line cut by a kill is ignored when the file is read.
 */
import { mkdir, open, readFile, truncate, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EvalResultsError } from '../errors.js';
import type { CaseRun } from '../run/case-run.js';

/** Written at each start of an evaluation: what it runs. The latest header describes the evaluation. */
export interface EvalHeader {
  type: 'evaluation';
  version: 1;
  name: string;
  at: string;
  /**
   * This start does not continue the runs before it (the first start, or `resume: false`): they stay
   * in the file, but only their attempts count (so no session id is used twice).
   */
  fresh: boolean;
  /** Where the runs' sessions are (a directory or s3://...), for links to each run's page. */
  store?: string;
  scorers: { name: string; threshold: number }[];
  repeats: number;
  passAtK: number;
  /** The valid cases, in order. */
  cases: { id: string; tags: string[]; hash: string }[];
  /** Cases that cannot run, each with a message naming the case and the field. */
  invalid: { id: string; problem: string }[];
}

export interface StartLine {
  type: 'start';
  caseId: string;
  repeat: number;
  attempt: number;
  sessionId: string;
  at: string;
}

/** One scorer's verdict on one run. */
export interface ScoreEntry {
  score: number;
  reason: string;
  threshold: number;
  passed: boolean;
}

/** One scored run of one case. */
export interface CaseResult {
  type: 'result';
  caseId: string;
  repeat: number;
  attempt: number;
  /** The hash of the case as it ran (a changed case runs again on resume). */
  hash: string;
  tags: string[];
  status: string;
  /** Every applicable scorer passed its threshold (and the run did not throw). */
  passed: boolean;
  scores: Record<string, ScoreEntry>;
  run: CaseRun;
  at: string;
}

export type LogLine = EvalHeader | StartLine | CaseResult;

/** The lines of a results file (a last line cut by a kill is left out); `[]` when there is none. */
export async function readLog(file: string): Promise<LogLine[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new EvalResultsError(`Cannot read ${file}: ${(error as Error).message}`, file, { cause: error });
  }
  return parseLog(text, file);
}

/** The lines of results JSONL text (pure). */
function parseLog(text: string, file: string): LogLine[] {
  const rows = text.split('\n');
  const lines: LogLine[] = [];
  rows.forEach((row, i) => {
    if (!row.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch (error) {
      if (i >= rows.length - 2) return; // the last line, cut by a kill
      throw new EvalResultsError(`${file} line ${i + 1} is not JSON: ${(error as Error).message}`, file);
    }
    const type = (value as { type?: unknown } | null)?.type;
    if (type !== 'evaluation' && type !== 'start' && type !== 'result')
      throw new EvalResultsError(
        `${file} line ${i + 1} is not a line of an evaluation's results (type ${JSON.stringify(type)}).`,
        file,
      );
    lines.push(value as LogLine);
  });
  if (lines.length > 0 && lines[0]?.type !== 'evaluation')
    throw new EvalResultsError(
      `${file} does not start with an evaluation header; is it a results file of @skein/evals?`,
      file,
    );
  return lines;
}

/** Appends lines one at a time, in the order given, through one open file (a line is one write). */
export class LogWriter {
  readonly file: string;
  readonly #handle: FileHandle;
  #tail: Promise<void> = Promise.resolve();

  private constructor(file: string, handle: FileHandle) {
    this.file = file;
    this.#handle = handle;
  }

  /** Opens `file` for appending (created when missing). A last line cut by a kill is cut off. */
  static async open(file: string): Promise<LogWriter> {
    await mkdir(dirname(file), { recursive: true });
    const bytes = await readFile(file).catch(() => Buffer.alloc(0));
    if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) await truncate(file, bytes.lastIndexOf(0x0a) + 1);
    return new LogWriter(file, await open(file, 'a'));
  }

  append(line: LogLine): Promise<void> {
    const text = `${JSON.stringify(line)}\n`;
    this.#tail = this.#tail.then(async () => void (await this.#handle.write(text)));
    return this.#tail;
  }

  /** Waits for the lines appended so far, then closes the file. */
  async close(): Promise<void> {
    await this.#tail.catch(() => undefined);
    await this.#handle.close();
  }
}
