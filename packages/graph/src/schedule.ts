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

/** A cycle of the graph as a node path (`a -> b -> a`), or `undefined` when it has none. Iterative: a chain of any length. */
export function findCycle(nodeIds: readonly string[], edges: readonly GraphEdge[]): string[] | undefined {
  const next = new Map<string, string[]>(nodeIds.map((id) => [id, []]));
  for (const e of edges) for (const f of e.from) next.get(f)?.push(e.to);
  const state = new Map<string, 'open' | 'done'>();
  for (const root of nodeIds) {
    if (state.has(root)) continue;
    // The depth-first path, each node with the index of its next edge to follow.
    const path: string[] = [root];
    const at: number[] = [0];
    state.set(root, 'open');
    while (path.length > 0) {
      const id = path[path.length - 1] as string;
      const i = at[at.length - 1] as number;
      const to = (next.get(id) ?? [])[i];
      if (to === undefined) {
        state.set(id, 'done');
        path.pop();
        at.pop();
        continue;
      }
      at[at.length - 1] = i + 1;
      if (state.get(to) === 'open') return [...path.slice(path.indexOf(to)), to];
      if (!state.has(to)) {
        state.set(to, 'open');
        path.push(to);
        at.push(0);
      }
    }
  }
  return undefined;
}

/**
 * The edges `nodeId` may follow now that it finished (`outgoing`: its edges, from
 * {@link outgoingEdges}), before conditions are checked, and the join progress after its arrival.
 * Synchronous on purpose: the caller stores the new progress before awaiting anything, so nodes
 * that finish together cannot lose each other's arrivals. A completed node is a candidate for each
 * of its plain edges and arrives at each of its joins; a join whose sources have all arrived is a
 * candidate (its progress resets). A failed node is a candidate only for plain edges that have a
 * condition (routing around the failure) and never counts towards a join.
 */
export function arriveAt(
  nodeId: string,
  succeeded: boolean,
  outgoing: readonly GraphEdge[],
  joins: JoinProgress,
): { candidates: FiredEdge[]; joins: JoinProgress } {
  // Copied on the first join this node arrives at: most nodes feed none, and keep the map as it is.
  let progress: Map<number, readonly string[]> | undefined;
  const candidates: FiredEdge[] = [];
  for (const edge of outgoing) {
    if (!edge.join) {
      if (succeeded || edge.condition) candidates.push({ edge, sources: [nodeId] });
      continue;
    }
    if (!succeeded) continue;
    progress ??= new Map(joins);
    const arrived = arrive(progress.get(edge.index) ?? [], nodeId);
    if (!edge.from.every((f) => arrived.includes(f))) {
      progress.set(edge.index, arrived);
      continue;
    }
    progress.delete(edge.index);
    candidates.push({ edge, sources: edge.from });
  }
  return { candidates, joins: progress ?? joins };
}

/**
 * The candidates whose condition holds (or that have none), in order; a promise only when a candidate
 * has a condition (conditions may be async). `state` is made only then.
 */
export function checkConditions(
  candidates: readonly FiredEdge[],
  state: () => GraphState,
): FiredEdge[] | Promise<FiredEdge[]> {
  if (candidates.every((c) => !c.edge.condition)) return [...candidates];
  return checkEach(candidates, state());
}

async function checkEach(candidates: readonly FiredEdge[], state: GraphState): Promise<FiredEdge[]> {
  const fired: FiredEdge[] = [];
  for (const candidate of candidates) {
    const condition = candidate.edge.condition;
    if (!condition || (await condition(state))) fired.push(candidate);
  }
  return fired;
}

/**
 * Joins that still wait for a source whose completion was never used: an arrival was lost, and a
 * run that ended like this must not say `completed`. A join without a condition whose target never
 * ran never fired, so every source that completed should have arrived. Otherwise (it fired before,
 * or a false condition may have used a firing) a source counts as lost when it completed after the
 * join's first pending arrival. A source that never ran or failed was routed around, and the join's
 * partial progress is expected. `places` are each node's positions in the execution order.
 */
export function strandedJoins(
  edges: readonly GraphEdge[],
  joins: JoinProgress,
  results: Readonly<Record<string, { status: string }>>,
  places: Readonly<Record<string, readonly number[]>>,
): string[] {
  const stranded: string[] = [];
  for (const [index, arrived] of joins) {
    const edge = edges.find((e) => e.index === index);
    if (!edge || arrived.length === 0) continue;
    const neverFired = !edge.condition && places[edge.to] === undefined;
    const firstArrival = Math.min(...arrived.map((a) => lastPlace(places, a)));
    for (const missing of edge.from.filter((f) => !arrived.includes(f))) {
      if (results[missing]?.status === 'completed' && (neverFired || lastPlace(places, missing) > firstArrival)) {
        stranded.push(
          `join of ${edge.from.join(', ')} -> ${edge.to} (${missing} completed but its arrival was not recorded)`,
        );
      }
    }
  }
  return stranded;
}

const lastPlace = (places: Readonly<Record<string, readonly number[]>>, nodeId: string): number =>
  places[nodeId]?.at(-1) ?? -1;

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

const reasons = new WeakMap<GraphEdge, string>();

/** Human-readable reason of a followed edge, for the transition history (made once per edge). */
export function describeEdge(edge: GraphEdge): string {
  let reason = reasons.get(edge);
  if (reason === undefined) reasons.set(edge, (reason = edgeReason(edge)));
  return reason;
}

function edgeReason(edge: GraphEdge): string {
  const from = edge.join ? `join of ${edge.from.join(', ')}` : (edge.from[0] ?? '');
  const name = edge.condition?.name;
  const why = !edge.condition
    ? 'unconditional'
    : name && name !== 'condition'
      ? `condition ${name} held`
      : 'condition held';
  return `${from} -> ${edge.to} (${why})`;
}
