/**
 * The desk's evaluation as a module the `skein` CLI runs:
 * `npm run skein -- eval run examples/support-desk/evals/evaluation.ts` (results in .desk/evals/cli/).
 */
import { resolve } from 'node:path';
import type { EvaluateOptions } from '@skein/evals';
import { pickDeskModels } from '../src/desk-models.js';
import { deskEvaluation } from './desk-eval.js';

export default async function evaluation(): Promise<EvaluateOptions> {
  const models = await pickDeskModels();
  return deskEvaluation({
    out: resolve(process.env['INIT_CWD'] ?? process.cwd(), '.desk', 'evals', 'cli'),
    name: 'cli',
    modelFor: models.modelFor,
  });
}
