/**
 * The shared state an AG-UI client sees of a graph's or swarm's run: which nodes (members) run, how
 * each one ended, how many transitions (handoffs) there were, and the run's status. Sent as a
 * `STATE_SNAPSHOT` when the run starts and as `STATE_DELTA` (RFC 6902 JSON Patch) when it changes;
 * computed from the turn's events alone, so every client that re-joins computes the same state.
 */
import type { JsonPatchOperation } from '@ag-ui/core';

/** The run as the state events show it. */
export interface RunView {
  kind: string;
  name: string;
  turn: number;
  status: string;
  /** Node paths running now (`desk/refund` for a member of a nested swarm), in the order they started. */
  active: string[];
  /** How each node that ran this turn stands: `executing`, then its status (`completed`, `failed`, `interrupted`...). */
  nodes: Record<string, string>;
  transitions: number;
  /** The last transition: from, to, and its kind (`handoff`, `edge`...). */
  lastTransition: { from: string; to: string; kind: string } | null;
}

/** A fresh view of a run that starts. */
export function newRunView(kind: string, name: string, turn: number): RunView {
  return { kind, name, turn, status: 'running', active: [], nodes: {}, transitions: 0, lastTransition: null };
}

/** A JSON Pointer segment (RFC 6901): `~` and `/` escaped. */
const segment = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Node `path` started: the patch that says so (and `view` changed alike). */
export function nodeStarted(view: RunView, path: string): JsonPatchOperation[] {
  view.active.push(path);
  view.nodes[path] = 'executing';
  return [
    { op: 'add', path: '/active/-', value: path },
    { op: 'add', path: `/nodes/${segment(path)}`, value: 'executing' },
  ];
}

/** Node `path` stopped with `status`. */
export function nodeStopped(view: RunView, path: string, status: string): JsonPatchOperation[] {
  const at = view.active.indexOf(path);
  const ops: JsonPatchOperation[] = [];
  if (at >= 0) {
    view.active.splice(at, 1);
    ops.push({ op: 'remove', path: `/active/${at}` });
  }
  view.nodes[path] = status;
  ops.push({ op: 'add', path: `/nodes/${segment(path)}`, value: status });
  return ops;
}

/** A transition (a handoff in a swarm, an edge in a graph). */
export function transitioned(view: RunView, from: string, to: string, kind: string): JsonPatchOperation[] {
  view.transitions += 1;
  view.lastTransition = { from, to, kind };
  return [
    { op: 'replace', path: '/transitions', value: view.transitions },
    { op: 'replace', path: '/lastTransition', value: { from, to, kind } },
  ];
}

/** The run ended with `status`: nothing runs any more. */
export function runEnded(view: RunView, status: string): JsonPatchOperation[] {
  view.status = status;
  const ops: JsonPatchOperation[] = view.active.map(() => ({ op: 'remove', path: '/active/0' }));
  view.active = [];
  ops.push({ op: 'replace', path: '/status', value: status });
  return ops;
}
