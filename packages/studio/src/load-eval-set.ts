/**
 * The eval set a studio module names: loaded by `skein eval run`'s own convention (the inspector's
 * `loadEvaluation`: the options of `evaluate()` as default export, a named one or the only one, or a
 * function returning them). The studio keeps the cases, scorers and run options; the target (each
 * page's own), where runs are stored (the studio's store) and results go are the server's.
 */
import { loadEvaluation } from '@skein/inspector';
import type { EvalSet } from '@skein/server';
import { studioError } from './studio-errors.js';

/** The cases, scorers and run options of the evaluation `modulePath` exports. */
export async function loadEvalSet(modulePath: string, cwd: string): Promise<EvalSet> {
  const declared = await loadEvaluation(modulePath, undefined, cwd).catch((error: unknown) =>
    studioError(`evals: ${error instanceof Error ? error.message : String(error)}`),
  );
  const { cases, scorers, filter, name, concurrency, repeats, passAtK, budget } = declared;
  return {
    cases,
    scorers,
    ...(filter ? { filter } : {}),
    ...(name === undefined ? {} : { name }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(repeats === undefined ? {} : { repeats }),
    ...(passAtK === undefined ? {} : { passAtK }),
    ...(budget === undefined ? {} : { budget }),
  };
}
