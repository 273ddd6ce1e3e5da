/**
 * `skein eval run | compare | show | export`: runs an evaluation a module declares, compares two
 * stored evaluations (exit 1 when a scorer's mean dropped more than the threshold), prints one, or
 * writes its page with a page for each run beside it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
  compareSummaries,
  evaluate,
  formatComparison,
  formatSummary,
  loadResults,
  type StoredEvaluation,
} from '@skein/evals';
import { renderEvalPage } from '../render/eval-page.js';
import { renderHtmlPage } from '../render/html-page.js';
import { pageData } from '../render/page-data.js';
import { openStore } from '../store/open-store.js';
import { loadSession } from '../view/load-session.js';
import { UsageError, type CliIo } from './cli-io.js';
import { loadEvaluation } from './eval-module.js';

export interface EvalFlags {
  output?: string | undefined;
  json?: boolean | undefined;
  out?: string | undefined;
  baseline?: string | undefined;
  threshold?: string | undefined;
  concurrency?: string | undefined;
  repeats?: string | undefined;
  resume?: boolean | undefined;
  store?: string | undefined;
}

function need(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`Missing ${what}.`);
  return value;
}

function numberFlag(value: string | undefined, what: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min)
    throw new UsageError(`${what} must be a number of ${min} or more (got ${value}).`);
  return n;
}

async function run(args: string[], flags: EvalFlags, io: CliIo): Promise<number> {
  const declared = await loadEvaluation(need(args[0], 'the module that exports the evaluation'), args[1], io.cwd);
  const name = declared.name ?? 'eval';
  const out = resolve(io.cwd, flags.out ?? declared.out ?? join('.skein', 'evals', name));
  const concurrency = numberFlag(flags.concurrency, '--concurrency', 1);
  const repeats = numberFlag(flags.repeats, '--repeats', 1);
  const report = await evaluate({
    ...declared,
    out,
    resume: flags.resume === true,
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(repeats === undefined ? {} : { repeats }),
    onResult: (r) =>
      io.stdout.write(`  ${r.passed ? 'ok  ' : 'FAIL'} ${r.caseId}${r.repeat > 0 ? ` #${r.repeat}` : ''}\n`),
  });
  io.stdout.write(formatSummary(report.summary));
  io.stdout.write(`results: ${report.file ?? out}\n`);
  if (!flags.baseline) return report.summary.passed ? 0 : 1;
  const base = await loadResults(resolve(io.cwd, flags.baseline));
  return printComparison(base, report.summary, flags, io);
}

function printComparison(
  base: StoredEvaluation,
  next: StoredEvaluation['summary'],
  flags: EvalFlags,
  io: CliIo,
): number {
  const threshold = numberFlag(flags.threshold, '--threshold', 0) ?? 0;
  const comparison = compareSummaries(base.summary, next, { threshold });
  io.stdout.write(
    flags.json
      ? `${JSON.stringify(comparison, null, 2)}\n`
      : `compared with ${base.file}:\n${formatComparison(comparison)}`,
  );
  return comparison.failed ? 1 : 0;
}

/** Writes each run's page beside the evaluation's page; returns the links (none when the store cannot be read). */
async function exportRuns(
  evaluation: StoredEvaluation,
  output: string,
  flags: EvalFlags,
  io: CliIo,
): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  const spec = flags.store ?? evaluation.summary.store;
  if (!spec) return links;
  const folder = `${basename(output).replace(/\.html?$/, '')}.runs`;
  await mkdir(join(dirname(output), folder), { recursive: true });
  const store = openStore(spec.startsWith('s3://') ? spec : resolve(io.cwd, spec), { env: io.env });
  try {
    for (const sessionId of evaluation.results.flatMap((r) => (r.run.sessionId ? [r.run.sessionId] : []))) {
      const page = renderHtmlPage(pageData(await loadSession(store, sessionId)));
      await writeFile(join(dirname(output), folder, `${sessionId}.html`), page);
      links.set(sessionId, `${encodeURIComponent(folder)}/${encodeURIComponent(sessionId)}.html`);
    }
  } finally {
    await store.close();
  }
  return links;
}

export async function evalCommand(args: string[], flags: EvalFlags, io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'run':
      return run(rest, flags, io);
    case 'compare': {
      const base = await loadResults(resolve(io.cwd, need(rest[0], 'the baseline (a results.jsonl or its directory)')));
      const next = await loadResults(
        resolve(io.cwd, need(rest[1], 'the new results (a results.jsonl or its directory)')),
      );
      return printComparison(base, next.summary, flags, io);
    }
    case 'show': {
      const stored = await loadResults(
        resolve(io.cwd, need(rest[0], 'the results (a results.jsonl or its directory)')),
      );
      io.stdout.write(flags.json ? `${JSON.stringify(stored.summary, null, 2)}\n` : formatSummary(stored.summary));
      return 0;
    }
    case 'export': {
      const stored = await loadResults(
        resolve(io.cwd, need(rest[0], 'the results (a results.jsonl or its directory)')),
      );
      const output = resolve(io.cwd, need(flags.output, 'the output file (-o eval.html)'));
      const links = await exportRuns(stored, output, flags, io);
      await writeFile(
        output,
        renderEvalPage(stored, (id) => links.get(id)),
      );
      io.stdout.write(`Wrote ${output}${links.size ? ` and ${links.size} run pages` : ''}\n`);
      return 0;
    }
    default:
      throw new UsageError(
        sub
          ? `Unknown eval command "${sub}" (run, compare, show, export).`
          : 'Missing the eval command (run, compare, show, export).',
      );
  }
}
