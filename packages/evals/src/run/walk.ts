/**
 * Every agent a target runs: a Graph's node targets, a Swarm's members, nested orchestrators,
 * agents behind `asTool()` tools and handoff targets. Found through what Graph and Swarm expose
 * (`nodes`), so this package needs only @skein/core.
 */
import { Agent, isMultiAgent, type MultiAgentBase } from '@skein/core';

/** A Graph's `nodes` (a map of `{ target }`) or a Swarm's `nodes` (its member agents). */
function nodeTargets(o: MultiAgentBase): (Agent | MultiAgentBase)[] {
  const nodes = (o as { nodes?: unknown }).nodes;
  const values: unknown[] =
    nodes instanceof Map
      ? [...(nodes as Map<string, { target?: unknown }>).values()].map((n) => n.target)
      : Array.isArray(nodes)
        ? nodes
        : [];
  return values.filter((v): v is Agent | MultiAgentBase => v instanceof Agent || isMultiAgent(v));
}

function children(target: Agent | MultiAgentBase): (Agent | MultiAgentBase)[] {
  if (!(target instanceof Agent)) return nodeTargets(target);
  const out: (Agent | MultiAgentBase)[] = [];
  for (const tool of target.tools) if (tool.agent instanceof Agent) out.push(tool.agent);
  for (const handoff of target.handoffs) out.push(handoff.agent);
  return out;
}

/** The agents reachable from `root`, each once. */
export function agentsOf(root: Agent | MultiAgentBase): Agent[] {
  const seen = new Set<Agent | MultiAgentBase>();
  const agents: Agent[] = [];
  const visit = (t: Agent | MultiAgentBase): void => {
    if (seen.has(t)) return;
    seen.add(t);
    if (t instanceof Agent) agents.push(t);
    for (const child of children(t)) visit(child);
  };
  visit(root);
  return agents;
}
