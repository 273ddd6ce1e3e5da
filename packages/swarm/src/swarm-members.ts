import {
  assertNoOwnSessionManager,
  ConfigurationError,
  handoffToolName,
  isAgent,
  type Agent,
  type AgentHandle,
  type Handoff,
} from '@skein/core';
import { defaultTransfer } from './transfer-input.js';

/** The member agents of a swarm, their node ids (their names), session keys and handoffs. */
export class SwarmMembers {
  readonly #byId = new Map<string, Agent>();
  readonly #idOf = new Map<AgentHandle, string>();
  readonly #keys = new Map<string, string>();
  readonly #handoffs = new Map<string, readonly Handoff[]>();

  constructor(nodes: readonly Agent[]) {
    const tools = new Map<string, string>();
    for (const [i, agent] of nodes.entries()) {
      if (!isAgent(agent)) {
        throw new ConfigurationError(
          `Swarm nodes[${i}] is not an Agent; a Swarm runs agents (put other orchestrators in a Graph).`,
        );
      }
      assertNoOwnSessionManager(agent, 'Swarm');
      if (this.#idOf.has(agent))
        throw new ConfigurationError(`Agent ${JSON.stringify(agent.name)} is listed twice in the Swarm's nodes.`);
      const tool = handoffToolName(agent.name);
      const clash = tools.get(tool);
      if (clash !== undefined) {
        throw new ConfigurationError(
          `Swarm members ${JSON.stringify(clash)} and ${JSON.stringify(agent.name)} share the handoff tool ${tool}; give each member a distinct name.`,
        );
      }
      tools.set(tool, agent.name);
      const key = tool.slice('transfer_to_'.length).replace(/^_+|_+$/g, '') || `node${i}`;
      this.#byId.set(agent.name, agent);
      this.#idOf.set(agent, agent.name);
      this.#keys.set(agent.name, key);
    }
    for (const agent of nodes) this.#handoffs.set(agent.name, this.#resolveHandoffs(agent, nodes));
  }

  #resolveHandoffs(agent: Agent, nodes: readonly Agent[]): readonly Handoff[] {
    if (agent.handoffs.length === 0) return nodes.filter((other) => other !== agent).map(defaultTransfer);
    for (const h of agent.handoffs) {
      if (!this.#idOf.has(h.agent)) {
        throw new ConfigurationError(
          `Agent ${JSON.stringify(agent.name)} hands off to ${JSON.stringify(h.agent.name)}, which is not a member of the Swarm; add it to nodes (or use Swarm.fromAgent).`,
        );
      }
    }
    return agent.handoffs;
  }

  /** Node ids in the order given. */
  get ids(): string[] {
    return [...this.#byId.keys()];
  }

  /** The agent of a node id. */
  agent(id: string): Agent {
    const agent = this.#byId.get(id);
    if (!agent)
      throw new ConfigurationError(
        `The Swarm has no node ${JSON.stringify(id)}; its nodes are ${this.ids.join(', ')}.`,
      );
    return agent;
  }

  /** True when `id` names a member. */
  has(id: string): boolean {
    return this.#byId.has(id);
  }

  /** The node id of a member agent. */
  idOf(agent: AgentHandle): string | undefined {
    return this.#idOf.get(agent);
  }

  /** The id under which the session stores a member (safe for file names). */
  key(id: string): string {
    return this.#keys.get(id) ?? id;
  }

  /** The handoffs offered to a member: those it declares, or one to every other member. */
  handoffs(id: string): readonly Handoff[] {
    return this.#handoffs.get(id) ?? [];
  }

  /**
   * The members as a Mermaid flowchart: a box per member (the entry point highlighted) and an arrow
   * per handoff it is offered, labelled with the transfer tool's name.
   */
  toMermaid(entry: string): string {
    const ref = new Map(this.ids.map((id, i) => [id, `n${i}`]));
    const label = (text: string): string => text.replace(/["|]/g, (c) => (c === '"' ? '#quot;' : '#124;'));
    const lines = ['flowchart LR', ...this.ids.map((id) => `  ${ref.get(id)}["${label(id)}"]`)];
    for (const id of this.ids) {
      for (const h of this.handoffs(id)) {
        const to = this.idOf(h.agent);
        if (to !== undefined) lines.push(`  ${ref.get(id)} -->|${label(h.toolName)}| ${ref.get(to)}`);
      }
    }
    lines.push('  classDef entry stroke-width:3px', `  class ${ref.get(entry)} entry`);
    return lines.join('\n');
  }

  /** Every agent reachable from `entry` through declared handoffs, `entry` first. */
  static reachable(entry: Agent): Agent[] {
    const seen = new Set<Agent>([entry]);
    const queue = [entry];
    for (let agent = queue.shift(); agent; agent = queue.shift()) {
      for (const h of agent.handoffs) {
        if (isAgent(h.agent) && !seen.has(h.agent)) {
          seen.add(h.agent);
          queue.push(h.agent);
        }
      }
    }
    return [...seen];
  }
}
