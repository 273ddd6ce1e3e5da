/**
 * Reaches every agent of what the user built (an agent, a graph's nodes, a swarm's members, nested
 * orchestrators) and makes its model calls and tool calls journaled steps. Agents used as tools
 * (`asTool`) run inside their caller's tool step: one step for the whole nested call.
 */
import { isAgent, isRunnable, type MultiAgentBase, type Runnable } from '@skein/core';
import { journalModel } from './journaled-model.js';
import { journalTools } from './journaled-tools.js';

const prepared = new WeakSet<object>();

/** The direct children of an orchestrator: a Graph's node targets, a Swarm's member agents. */
function childrenOf(orchestrator: MultiAgentBase): unknown[] {
  const graphNodes = (orchestrator as { nodes?: unknown }).nodes;
  if (graphNodes instanceof Map) return [...graphNodes.values()].map((node: { target: unknown }) => node.target);
  if (Array.isArray(graphNodes)) return graphNodes;
  throw new TypeError(
    `Orchestrator ${orchestrator.id} exposes no nodes; @skein/restate runs Graph and Swarm (or anything with a nodes map or array).`,
  );
}

/** Journals every model and tool call of `target` and everything nested in it (idempotent). */
export function prepareTree(target: Runnable): void {
  if (prepared.has(target)) return;
  prepared.add(target);
  if (isAgent(target)) {
    journalModel(target.model);
    target.hooks.addHook(journalTools);
    return;
  }
  for (const child of childrenOf(target)) {
    if (isRunnable(child)) prepareTree(child);
  }
}
