/**
 * Runs every case (`repeats` times each) on a fresh target, at most `concurrency` at once, under one
 * budget over the whole evaluation; scores each run, appends it to the results file as it finishes,
 * and summarizes. Given the same `out`, a killed or stopped evaluation resumes: finished runs of
 * unchanged cases are kept, the rest run (a run cut midway runs again from its start, in a new session).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  InMemorySessionRepository,
  RepositorySessionManager,
  RunBudget,
  emptySpend,
  type BudgetSpend,
} from '@skein/core';
import { checkCases, type CaseSource, type CheckedCase } from '../case/check-cases.js';
import type { EvalCase } from '../case/eval-case.js';
import { readCaseFile } from '../case/read-case-file.js';
import { EvalResultsError } from '../errors.js';
import { runKey, viewLog, type LogView } from '../report/log-view.js';
import { summarize, type EvalSummary } from '../report/summarize.js';
import { runCase } from '../run/run-case.js';
import { caseHash } from './case-hash.js';
import { resolveOptions, type EvalSessions, type EvaluateOptions, type ResolvedOptions } from './evaluate-options.js';
import { LogWriter, readLog, type CaseResult, type EvalHeader, type LogLine } from './results-log.js';
import { scoreRun } from './score-run.js';

/** What `evaluate()` resolves with. */
export interface EvalReport {
  summary: EvalSummary;
  /** Every finished run, in case order (runs kept from before a resume included). */
  results: CaseResult[];
  /** The results file, when `out` was given. */
  file?: string;
  /** What scorers with their own model calls (the judge) spent, by scorer name. */
  scorerSpend: Record<string, BudgetSpend>;
}

type ValidCase = Extract<CheckedCase, { ok: true }> & { hash: string };

async function sourcesOf(cases: EvaluateOptions['cases']): Promise<CaseSource[]> {
  if (typeof cases === 'string') return readCaseFile(cases);
  return cases.map((value, i) => ({ value, origin: `cases[${i}]` }));
}

function headerOf(
  o: EvaluateOptions,
  r: ResolvedOptions,
  valid: ValidCase[],
  checked: CheckedCase[],
  fresh: boolean,
): EvalHeader {
  const sessions = o.sessions === false ? undefined : o.sessions;
  return {
    type: 'evaluation',
    version: 1,
    name: r.name,
    at: new Date().toISOString(),
    fresh,
    ...(sessions?.location ? { store: sessions.location } : {}),
    scorers: o.scorers.map((s) => ({ name: s.name, threshold: s.threshold ?? 1 })),
    repeats: r.repeats,
    passAtK: r.passAtK,
    cases: valid.map((c) => ({ id: c.evalCase.id, tags: c.evalCase.tags, hash: c.hash })),
    invalid: checked.flatMap((c) => (c.ok ? [] : [{ id: c.id, problem: c.problem }])),
  };
}

function inMemorySessions(): EvalSessions {
  const repository = new InMemorySessionRepository();
  return { open: (sessionId) => new RepositorySessionManager({ sessionId, repository }) };
}

/** The log so far (also when starting over: its attempts still count); refuses a file of another evaluation. */
async function previousLog(file: string | undefined, name: string): Promise<LogLine[]> {
  if (!file) return [];
  const lines = await readLog(file);
  const first = lines[0];
  if (first?.type === 'evaluation' && first.name !== name)
    throw new EvalResultsError(
      `${file} holds the results of evaluation "${first.name}", not "${name}"; give another out directory.`,
      file,
    );
  return lines;
}

interface RunContext {
  o: EvaluateOptions;
  r: ResolvedOptions;
  budget: RunBudget;
  sessions: EvalSessions | undefined;
  view: LogView;
  writer: LogWriter | undefined;
  lines: LogLine[];
}

async function runOne(ctx: RunContext, evalCase: EvalCase, hash: string, repeat: number): Promise<void> {
  const { o, budget, sessions, view, writer } = ctx;
  if (o.signal?.aborted || budget.exceeded) return; // not run: a resume runs it
  const key = runKey(evalCase.id, repeat);
  const attempt = (view.attempts.get(key) ?? 0) + 1;
  view.attempts.set(key, attempt);
  const sessionId = `${ctx.r.name}.${evalCase.id}.r${repeat}${attempt > 1 ? `.a${attempt}` : ''}`;
  await writer?.append({
    type: 'start',
    caseId: evalCase.id,
    repeat,
    attempt,
    sessionId,
    at: new Date().toISOString(),
  });
  const scope = budget.root.child(key, 'run');
  const run = await runCase({ evalCase, repeat, sessionId, sessions, target: o.target, scope, signal: o.signal });
  const unfinished = run.status === 'budgetExceeded' || run.status === 'cancelled';
  const scored = unfinished ? { scores: {}, passed: false } : await scoreRun(run, evalCase, o.scorers, o.signal);
  const result: CaseResult = {
    type: 'result',
    caseId: evalCase.id,
    repeat,
    attempt,
    hash,
    tags: evalCase.tags,
    status: run.status,
    ...scored,
    run,
    at: new Date().toISOString(),
  };
  ctx.lines.push(result);
  await writer?.append(result);
  o.onResult?.(result);
}

/** Runs every run not finished yet, `concurrency` at once; a results file that cannot be written stops them all. */
async function runAll(ctx: RunContext, valid: readonly ValidCase[]): Promise<void> {
  const { default: PQueue } = await import('p-queue');
  const queue = new PQueue({ concurrency: ctx.r.concurrency });
  const signal = ctx.o.signal;
  const stop = (): void => queue.clear();
  signal?.addEventListener('abort', stop, { once: true });
  let failure: { error: unknown } | undefined;
  try {
    for (const { evalCase, hash } of valid)
      for (let repeat = 0; repeat < ctx.r.repeats; repeat++)
        if (!ctx.view.done.has(runKey(evalCase.id, repeat)))
          void queue
            .add(() => runOne(ctx, evalCase, hash, repeat))
            .catch((error: unknown) => {
              failure ??= { error };
              queue.clear();
            });
    await queue.onIdle();
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  if (failure) throw failure.error;
}

/** The report of the log as it stands, and `summary.json` when there is an `out`. */
async function reportOf(
  o: EvaluateOptions,
  r: ResolvedOptions,
  valid: readonly ValidCase[],
  lines: LogLine[],
  file: string | undefined,
): Promise<EvalReport> {
  const view = viewLog(lines, file ?? 'results');
  const summary = summarize(view);
  const scorerSpend = Object.fromEntries(
    o.scorers.flatMap((s) => ('spent' in s ? [[s.name, (s as { spent: BudgetSpend }).spent]] : [])),
  );
  if (o.out) await writeFile(join(o.out, 'summary.json'), `${JSON.stringify({ ...summary, scorerSpend }, null, 2)}\n`);
  const results = valid.flatMap(({ evalCase }) =>
    Array.from({ length: r.repeats }, (_, i) => view.done.get(runKey(evalCase.id, i))).filter(
      (x): x is CaseResult => !!x,
    ),
  );
  return { summary, results, ...(file ? { file } : {}), scorerSpend };
}

/**
 * Runs an evaluation and resolves with its summary and results.
 * @example
 * const report = await evaluate({ target: () => buildDeskGraph(parts), cases: 'evals/cases.jsonl', scorers: [trajectory(), answer()] });
 * console.log(formatSummary(report.summary));
 */
export async function evaluate(options: EvaluateOptions): Promise<EvalReport> {
  const r = resolveOptions(options);
  // Made first: bad limits are a ConfigurationError before anything is written.
  const budget =
    options.budget instanceof RunBudget ? options.budget : new RunBudget(options.budget ?? {}, { name: r.name });
  const filter = options.filter;
  const checked = (await checkCases(await sourcesOf(options.cases), options.scorers)).filter(
    (c) => !filter || !c.ok || filter(c.evalCase),
  );
  const valid = checked.flatMap((c): ValidCase[] => (c.ok ? [{ ...c, hash: caseHash(c.evalCase) }] : []));
  const file = options.out ? join(options.out, 'results.jsonl') : undefined;
  const previous = await previousLog(file, r.name);
  const header = headerOf(options, r, valid, checked, previous.length === 0 || options.resume === false);
  const lines = [...previous, header];
  const view = viewLog(lines, file ?? 'results');
  if (!(options.budget instanceof RunBudget) && view.done.size > 0)
    budget.restore({ ...spentBy([...view.done.values()]), wallMs: 0 });
  const sessions = options.sessions === false ? undefined : (options.sessions ?? inMemorySessions());
  const writer = file ? await LogWriter.open(file) : undefined;
  try {
    await writer?.append(header);
    await runAll({ o: options, r, budget, sessions, view, writer, lines }, valid);
  } finally {
    await writer?.close();
  }
  return reportOf(options, r, valid, lines, file);
}

function spentBy(results: readonly CaseResult[]): BudgetSpend {
  const total = emptySpend();
  for (const r of results) for (const k of Object.keys(total) as (keyof BudgetSpend)[]) total[k] += r.run.usage[k] ?? 0;
  return total;
}
