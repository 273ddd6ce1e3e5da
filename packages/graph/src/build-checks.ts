import { ConfigurationError } from '@skein/core';
import type { GraphEdge, GraphNode } from './graph-types.js';
import { defaultEntryPoints, findCycle } from './schedule.js';

/** What `build()` checks. */
export interface GraphDraft {
  nodes: ReadonlyMap<string, GraphNode>;
  edges: readonly GraphEdge[];
  entryPoints: readonly string[];
  /** True when a node-execution limit or an execution timeout is set. */
  hasLimit: boolean;
}

/** Checks a graph before it runs and returns its entry points; throws `ConfigurationError` saying what to change. */
export function checkGraph(draft: GraphDraft): string[] {
  const ids = [...draft.nodes.keys()];
  if (ids.length === 0) throw new ConfigurationError('The graph has no nodes; add at least one with addNode(agent).');
  const cycle = findCycle(ids, draft.edges);
  if (cycle && !draft.hasLimit) {
    throw new ConfigurationError(
      `The graph has a cycle (${cycle.join(' -> ')}) and no limit, so it could run forever; ` +
        'set one with setMaxNodeExecutions(n) (or setExecutionTimeout(ms)).',
    );
  }
  const entryPoints = draft.entryPoints.length > 0 ? [...draft.entryPoints] : defaultEntryPoints(ids, draft.edges);
  if (entryPoints.length === 0) {
    throw new ConfigurationError(
      'Every node of the graph has an incoming edge, so no node starts a run; choose one with setEntryPoint(id).',
    );
  }
  return entryPoints;
}
