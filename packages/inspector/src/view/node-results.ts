import type { JsonObject } from '@skein/core';
import { obj } from './json-read.js';
import { resultView } from './result-view.js';
import type { NodeResultView } from './run-types.js';
import type { OrchestratorView } from './session-view.js';

/** The latest result of each node: a graph entry `{ result }`, a swarm entry (the result itself), or Strands' `node_results`. */
export function nodeResults(run: OrchestratorView): Record<string, NodeResultView> {
  const out: Record<string, NodeResultView> = {};
  const add = (id: string, r: JsonObject): void => {
    out[id] = resultView(r);
  };
  for (const [id, entry] of Object.entries(run.nodes)) {
    if (id.startsWith('run.')) continue;
    add(id, obj(entry['result']) ?? entry);
  }
  const strandsResults = obj(run.state['node_results']);
  if (run.strands && strandsResults)
    for (const [id, r] of Object.entries(strandsResults)) if (obj(r)) add(id, obj(r) as JsonObject);
  return out;
}
