/** Imports the module that declares an evaluation (`skein eval run <module> [export]`). */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EvaluateOptions } from '@skein/evals';
import { UsageError } from './cli-io.js';

/** An export that declares an evaluation: the options of `evaluate()`, or a function returning them. */
type Declared = EvaluateOptions | (() => EvaluateOptions | Promise<EvaluateOptions>);

const isOptions = (v: unknown): v is EvaluateOptions =>
  typeof v === 'object' && v !== null && 'target' in v && 'scorers' in v && 'cases' in v;
const isDeclared = (v: unknown): v is Declared => isOptions(v) || typeof v === 'function';

/**
 * The evaluation `modulePath` exports as `name`, else as `default`, else its only export that is
 * one: an object of `evaluate()` options, or a function (maybe async) returning them.
 */
export async function loadEvaluation(
  modulePath: string,
  name: string | undefined,
  cwd: string,
): Promise<EvaluateOptions> {
  const file = isAbsolute(modulePath) ? modulePath : resolve(cwd, modulePath);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const exports = Object.keys(mod).join(', ') || 'none';
  let found: unknown;
  if (name !== undefined) {
    found = mod[name];
    if (!isDeclared(found))
      throw new UsageError(`${modulePath} has no evaluation named "${name}" (exports: ${exports}).`);
  } else if (isDeclared(mod['default'])) found = mod['default'];
  else {
    const candidates = Object.entries(mod).filter(([, v]) => isOptions(v));
    if (candidates.length !== 1)
      throw new UsageError(
        candidates.length === 0
          ? `${modulePath} exports no evaluation; export the options of evaluate() ({ target, cases, scorers }) as default, or a function returning them.`
          : `${modulePath} exports several evaluations (${candidates.map(([k]) => k).join(', ')}); name one: skein eval run ${modulePath} <export>.`,
      );
    found = candidates[0]?.[1];
  }
  const options = typeof found === 'function' ? await (found as () => unknown)() : found;
  if (!isOptions(options))
    throw new UsageError(
      `${modulePath}: the evaluation must be the options of evaluate(): { target, cases, scorers, ... }.`,
    );
  return options;
}
