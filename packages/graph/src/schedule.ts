/**
 * Scheduling as small pure functions: which nodes start a run, which edges a finished node
 * follows, how joins gather their sources, and how activations of one node merge. The run loop
 * (graph-run.ts) only drives them. Everything is in insertion order, so runs are reproducible.
 */
import type { GraphEdge, GraphState } from './graph-types.js';

/** One pending execution of a node: the nodes whose edges led to it (its labelled inputs). */
export interface Activation {
  readonly nodeId: string;
  readonly sources: readonly string[];
}

/** An edge a finished node follows, with the sources whose outputs reach the target. */
export interface FiredEdge {
  readonly edge: GraphEdge;
  readonly sources: readonly string[];
}

/** Sources that have arrived at each join edge (by edge index) since it last fired. */
export type JoinProgress = ReadonlyMap<number, readonly string[]>;

/** Nodes without incoming edges, in insertion order (the default entry points). */
export function defaultEntryPoints(nodeIds: readonly string[], edges: readonly GraphEdge[]): string[] {
  const targets = new Set(edges.map((e) => e.to));
  return nodeIds.filter((id) => !targets.has(id));
}

/** Edges leaving each node (directly or as one source of a join), in insertion order. */
export function outgoingEdges(nodeIds: readonly string[], edges: readonly GraphEdge[]): Map<string, GraphEdge[]> {
  const out = new Map<string, GraphEdge[]>(nodeIds.map((id) => [id, []]));
  for (const e of edges) for (const f of e.from) out.get(f)?.push(e);
  return out;
}

/** A cycle of the graph as a node path (`a -> b -> a`), or `undefined` when it has none. */
export function findCycle(nodeIds: readonly string[], edges: readonly GraphEdge[]): string[] | undefined {
  const next = new Map<string, string[]>(nodeIds.map((id) => [id, []]));
  for (const e of edges) for (const f of e.from) next.get(f)?.push(e.to);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    state.set(id, 'open');
    path.push(id);
    for (const to of next.get(id) ?? []) {
      if (state.get(to) === 'open') return [...path.slice(path.indexOf(to)), to];
      if (!state.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of nodeIds) {
    if (state.has(id)) continue;
    const found = visit(id);
    if (found) return found;
  }
  return undefined;
}

/**
 * The edges `nodeId` follows now that it finished (`outgoing`: its edges, from {@link outgoingEdges}). A completed node follows each edge whose
 * condition holds (or that has none); a join edge records its arrival and fires once all its
 * sources arrived and its condition holds. A failed node follows only non-join edges that have a
 * condition which holds (routing around the failure); it never counts towards a join.
 */
export async function followEdges(
  nodeId: string,
  succeeded: boolean,
  outgoing: readonly GraphEdge[],
  state: GraphState,
  joins: JoinProgress,
): Promise<{ fired: FiredEdge[]; joins: Map<number, readonly string[]> }> {
  const progress = new Map(joins);
  const fired: FiredEdge[] = [];
  for (const edge of outgoing) {
    if (!edge.join) {
      if (!succeeded && !edge.condition) continue;
      if (!edge.condition || (await edge.condition(state))) fired.push({ edge, sources: [nodeId] });
      continue;
    }
    if (!succeeded) continue;
    const arrived = arrive(progress.get(edge.index) ?? [], nodeId);
    if (!edge.from.every((f) => arrived.includes(f))) {
      progress.set(edge.index, arrived);
      continue;
    }
    progress.delete(edge.index);
    if (!edge.condition || (await edge.condition(state))) fired.push({ edge, sources: edge.from });
  }
  return { fired, joins: progress };
}

function arrive(arrived: readonly string[], source: string): string[] {
  return arrived.includes(source) ? [...arrived] : [...arrived, source];
}

/** Adds an activation to the waiting ones: a node already waiting gains the new sources (merged, in order). */
export function addActivation(waiting: readonly Activation[], activation: Activation): Activation[] {
  const at = waiting.findIndex((a) => a.nodeId === activation.nodeId);
  if (at < 0) return [...waiting, activation];
  const current = waiting[at] as Activation;
  const sources = [...current.sources];
  for (const s of activation.sources) if (!sources.includes(s)) sources.push(s);
  return waiting.map((a, i) => (i === at ? { nodeId: a.nodeId, sources } : a));
}

/** Human-readable reason of a followed edge, for the transition history. */
export function describeEdge(edge: GraphEdge): string {
  const from = edge.join ? `join of ${edge.from.join(', ')}` : (edge.from[0] ?? '');
  const name = edge.condition?.name;
  const why = !edge.condition ? 'unconditional' : name && name !== 'condition' ? `condition ${name} held` : 'condition held';
  return `${from} -> ${edge.to} (${why})`;
}
