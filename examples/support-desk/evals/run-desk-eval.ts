/**
 * `npm run desk:eval`: runs the desk's evaluation (scripted models offline, a real model when
 * credentials are set), prints the summary, writes the results under `.desk/evals/<name>/`, and
 * exits 0 only when every case passes its thresholds (with `--baseline`, only when no scorer's mean
 * dropped below the baseline's either).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { compareSummaries, evaluate, formatComparison, formatSummary, loadResults } from '@skein/evals';
import { pickDeskModels } from '../src/desk-models.js';
import type { DeskShape } from '../src/desk.js';
import { scriptedDeskModel } from '../src/scripted-desk.js';
import { deskEvaluation } from './desk-eval.js';

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
const models = await pickDeskModels();
const real = models.modelFor !== scriptedDeskModel;
console.log(`[model] ${models.description}`);
console.log(`[eval] ${out}`);
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
const report = await evaluate({
  ...options,
  onResult: (r) => console.log(`  ${r.passed ? 'ok  ' : 'FAIL'} ${r.caseId}${r.repeat > 0 ? ` #${r.repeat}` : ''}`),
});
process.stdout.write(formatSummary(report.summary));
let code = report.summary.passed ? 0 : 1;
if (values.baseline) {
  const base = await loadResults(resolve(cwd, values.baseline));
  const comparison = compareSummaries(base.summary, report.summary, { threshold: Number(values.threshold) });
  process.stdout.write(`compared with ${base.file}:\n${formatComparison(comparison)}`);
  if (comparison.failed) code = 1;
}
console.log(`[eval] results: ${report.file ?? ''}; pages: npm run skein -- eval export ${out} -o eval.html`);
process.exit(code);
