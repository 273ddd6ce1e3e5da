/**
 * Every agent a target runs: a Graph's node targets, a Swarm's members, nested orchestrators,
 * agents behind `asTool()` tools and handoff targets. Found through what Graph and Swarm expose
 * (`nodes`), so this package needs only @skein/core.
 */
import { isAgent, isRunnable, type Agent, type MultiAgentBase, type Runnable } from '@skein/core';

/** A Graph's `nodes` (a map of `{ target }`) or a Swarm's `nodes` (its member agents). */
function nodeTargets(o: MultiAgentBase): Runnable[] {
  const nodes = (o as { nodes?: unknown }).nodes;
  const values: unknown[] =
    nodes instanceof Map
      ? [...(nodes as Map<string, { target?: unknown }>).values()].map((n) => n.target)
      : Array.isArray(nodes)
        ? nodes
        : [];
  return values.filter(isRunnable);
}

function children(target: Runnable): Runnable[] {
  if (!isAgent(target)) return nodeTargets(target);
  const out: Runnable[] = [];
  for (const tool of target.tools) if (isAgent(tool.agent)) out.push(tool.agent);
  for (const handoff of target.handoffs) if (isAgent(handoff.agent)) out.push(handoff.agent);
  return out;
}

/** The agents reachable from `root`, each once. */
export function agentsOf(root: Runnable): Agent[] {
  const seen = new Set<Runnable>();
  const agents: Agent[] = [];
  const visit = (t: Runnable): void => {
    if (seen.has(t)) return;
    seen.add(t);
    if (isAgent(t)) agents.push(t);
    for (const child of children(t)) visit(child);
  };
  visit(root);
  return agents;
}
