/**
 * The targets a studio serves: the agents, graphs and swarms a module declares, as factories of
 * `@skein/server` (each builds a fresh instance on the session manager it is given). The module
 * exports `{ agents, graphs, swarms }` as default (or a function, maybe async, returning them), or as
 * its only export that is such an object: the convention of `skein mcp serve`, without `sessions`
 * (the studio brings the store).
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentFactory, EvalSet, MultiAgentFactory } from '@skein/server';
import { studioError } from './studio-errors.js';

/** What a studio module declares: factories by name, as `createServer` takes them. */
export interface StudioTargets {
  agents?: Record<string, AgentFactory>;
  graphs?: Record<string, MultiAgentFactory>;
  swarms?: Record<string, MultiAgentFactory>;
  /**
   * The eval set the page runs against each target: the path (relative to `cwd`) of a module that
   * `skein eval run` runs (the options of `evaluate()`, or a function returning them; its target,
   * `out` and `sessions` are replaced by the studio's), or the cases and scorers themselves.
   */
  evals?: string | EvalSet;
}

const KINDS = ['agents', 'graphs', 'swarms'] as const;

const isTargets = (v: unknown): v is StudioTargets =>
  typeof v === 'object' &&
  v !== null &&
  KINDS.some((k) => k in v) &&
  KINDS.every((k) => {
    const group = (v as Record<string, unknown>)[k];
    return (
      group === undefined ||
      (typeof group === 'object' && group !== null && Object.values(group).every((f) => typeof f === 'function'))
    );
  });

/** The targets `modulePath` declares (see the module comment); a `ConfigurationError` says what to export otherwise. */
export async function loadTargets(modulePath: string, cwd: string): Promise<StudioTargets> {
  const file = isAbsolute(modulePath) ? modulePath : resolve(cwd, modulePath);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const candidates = Object.values(mod).filter(isTargets);
  const declared = mod['default'] ?? (candidates.length === 1 ? candidates[0] : undefined);
  const targets = typeof declared === 'function' ? await (declared as () => unknown)() : declared;
  if (!isTargets(targets))
    studioError(
      `${modulePath} declares no targets; export default { agents, graphs, swarms } (each a record of factories ({ sessionManager }) => instance, as @skein/server takes them), or a function returning it (exports: ${Object.keys(mod).join(', ') || 'none'}).`,
    );
  if (KINDS.every((k) => Object.keys(targets[k] ?? {}).length === 0))
    studioError(`${modulePath} declares no agent, graph or swarm; add one to agents, graphs or swarms.`);
  return targets;
}
