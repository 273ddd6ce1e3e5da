/**
 * `npm run desk:eval`: runs the desk's evaluation (scripted models offline, a real model when
 * credentials are set), prints the summary, writes the results under `.desk/evals/<name>/`, and
 * exits 0 only when every case passes its thresholds (with `--baseline`, only when no scorer's mean
 * dropped below the baseline's either).
 */
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  compareSummaries,
  evaluate,
  formatComparison,
  formatSummary,
  loadResults,
  readCaseFile,
  type CaseResult,
} from '@skein/evals';
import { pickDeskModels } from '../src/desk-models.js';
import type { DeskShape } from '../src/desk.js';
import { scriptedDeskModel } from '../src/scripted-desk.js';
import { DESK_CASES, deskEvaluation } from './desk-eval.js';

const HELP = `npm run desk:eval -- [options]
  --name <name>          the evaluation (default "desk"): results in .desk/evals/<name>/
  --shape graph|swarm|agent   only the cases of this shape (repeatable)
  --resume               continue a stopped evaluation of this name instead of starting over
  --concurrency <n>      runs at once (default 4)
  --repeats <n>          runs per case (default 1): pass rates, pass@k, flaky cases
  --baseline <dir>       compare with an earlier evaluation (e.g. .desk/evals/base); exit 1 when a scorer's mean dropped
  --threshold <x>        how far a scorer's mean may drop against the baseline (default 0)
`;

const { values } = parseArgs({
  options: {
    name: { type: 'string', default: 'desk' },
    shape: { type: 'string', multiple: true },
    resume: { type: 'boolean', default: false },
    concurrency: { type: 'string' },
    repeats: { type: 'string' },
    baseline: { type: 'string' },
    threshold: { type: 'string', default: '0' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

const cwd = process.env['INIT_CWD'] ?? process.cwd();
const out = resolve(cwd, '.desk', 'evals', values.name);
/** A path as the user can type it where they ran npm: relative when it is inside. */
const near = (path: string): string => (relative(cwd, path).startsWith('..') ? path : relative(cwd, path) || '.');
// In this repository the inspector runs from source (`npm run skein --`); in an app of your own, `npx skein`.
const SKEIN = 'npm run skein --';
const models = await pickDeskModels();
const real = models.modelFor !== scriptedDeskModel;
console.log(`[model] ${models.description}`);
console.log(`[eval] ${near(out)}`);
const options = deskEvaluation({
  out,
  modelFor: models.modelFor,
  ...(real ? { judgeModel: models.modelFor('triage') } : {}),
  name: values.name,
  resume: values.resume,
  ...(values.shape ? { shapes: values.shape as DeskShape[] } : {}),
  ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}),
  ...(values.repeats ? { repeats: Number(values.repeats) } : {}),
});
// One line per run, in the order of the case file (runs finish in any order: a finished run waits for the ones before it).
const order = (await readCaseFile(DESK_CASES)).flatMap((c) => {
  const value = c.value as { id?: unknown; metadata?: { shape?: unknown } };
  const shape = value.metadata?.shape as DeskShape | undefined;
  if (typeof value.id !== 'string' || (values.shape && !values.shape.includes(shape ?? 'graph'))) return [];
  return Array.from({ length: Number(values.repeats ?? 1) }, (_, repeat) => `${value.id} #${repeat}`);
});
const finished = new Map<string, CaseResult>();
let printed = 0;
const print = (r: CaseResult): void => {
  finished.set(`${r.caseId} #${r.repeat}`, r);
  for (let next = finished.get(order[printed] ?? ''); next; next = finished.get(order[++printed] ?? ''))
    console.log(`  ${next.passed ? 'ok  ' : 'FAIL'} ${next.caseId}${next.repeat > 0 ? ` #${next.repeat}` : ''}`);
};
const report = await evaluate({ ...options, onResult: print });
// What waited behind a run this process did not make (a resumed evaluation's earlier runs: the summary counts them).
for (const key of [...order.slice(printed), ...[...finished.keys()].filter((k) => !order.includes(k))]) {
  const r = finished.get(key);
  if (r) console.log(`  ${r.passed ? 'ok  ' : 'FAIL'} ${r.caseId}${r.repeat > 0 ? ` #${r.repeat}` : ''}`);
}
process.stdout.write(formatSummary(report.summary, { showCommand: SKEIN }));
let code = report.summary.passed ? 0 : 1;
if (values.baseline) {
  const base = await loadResults(resolve(cwd, values.baseline));
  const comparison = compareSummaries(base.summary, report.summary, { threshold: Number(values.threshold) });
  process.stdout.write(`compared with ${base.file}:\n${formatComparison(comparison)}`);
  if (comparison.failed) code = 1;
}
console.log(`[eval] results: ${near(report.file ?? out)}; pages: ${SKEIN} eval export ${near(out)} -o eval.html`);
process.exit(code);
