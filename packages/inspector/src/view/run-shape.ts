import type { NodeTransition } from '@skein/core';
import { obj } from './json-read.js';
import { nodeResults } from './node-results.js';
import type { GraphShape } from './run-types.js';
import type { OrchestratorView } from './session-view.js';

/** The stored graph shape, or the nodes (a swarm's stored members, and every node that ran) and the edges the transitions show. */
export function shapeOf(run: OrchestratorView, transitions: NodeTransition[]): GraphShape {
  // A graph stores its shape once per run in its run document (older versions: in every state document).
  const stored = obj(run.runDocument?.['shape']) ?? obj(run.state['shape']);
  if (stored && Array.isArray(stored['nodes']) && Array.isArray(stored['edges'])) {
    return {
      nodes: stored['nodes'].filter((n): n is string => typeof n === 'string'),
      edges: stored['edges'].flatMap((e) => {
        const o = obj(e);
        return o && typeof o['from'] === 'string' && typeof o['to'] === 'string'
          ? [{ from: o['from'], to: o['to'], conditional: o['conditional'] === true, join: o['join'] === true }]
          : [];
      }),
      entryPoints: Array.isArray(stored['entryPoints'])
        ? stored['entryPoints'].filter((n): n is string => typeof n === 'string')
        : [],
    };
  }
  // A swarm stores its members (once per run in its run document; older versions in every state
  // document): every agent is drawn, the handoffs taken are the edges.
  const listed = run.runDocument?.['members'] ?? run.state['members'];
  const members = Array.isArray(listed) ? listed.filter((n): n is string => typeof n === 'string') : [];
  const nodes = new Set<string>([...members, ...Object.keys(nodeResults(run))]);
  const edges = new Map<string, { from: string; to: string; conditional: boolean }>();
  const entryPoints = new Set<string>();
  for (const t of transitions) {
    if (t.to !== null) nodes.add(t.to);
    if (t.from !== null) nodes.add(t.from);
    if (t.from === null && t.to !== null && t.kind === 'start') entryPoints.add(t.to);
    if (t.from !== null && t.to !== null && t.from !== t.to)
      edges.set(`${t.from}->${t.to}`, { from: t.from, to: t.to, conditional: false });
  }
  return { nodes: [...nodes], edges: [...edges.values()], entryPoints: [...entryPoints] };
}
