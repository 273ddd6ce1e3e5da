import type { AgentHandle } from '../agent/agent-handle.js';
import type { HookProvider } from '../hooks/hook-registry.js';
import type { AgentTool } from '../tools/agent-tool.js';
import type { MemoryTarget } from './memory-target.js';

/**
 * A long-term memory as agents and orchestrators use it (`new Memory({...})` from `@skein/memory`):
 * hooks that read it into each model call and record each turn, and the tools it offers the model.
 */
export interface AgentMemory extends HookProvider {
  /** Tools the agent gets with the memory (the working-memory update tool). */
  readonly tools: readonly AgentTool[];
  /**
   * Opens one turn of an orchestrator (Graph, Swarm) holding this memory: returns the target its
   * nodes are invoked with, under which they read (recall runs once for the turn, with `task` as the
   * query) and do not record; `closeTurn` records the turn.
   */
  openTurn(target: MemoryTarget, task: string): MemoryTarget;
  /** Records an orchestrator's turn: the task and what it answered (`undefined`: nothing to record). */
  closeTurn(turn: MemoryTarget, answer: string | undefined): Promise<void>;
}

let addTools: ((agent: AgentHandle, tools: readonly AgentTool[]) => boolean) | undefined;
const attached = new WeakMap<AgentHandle, Set<AgentMemory>>();

/** Lets `Agent` add tools to an agent already built (set once, by the Agent class). */
export function registerToolAdder(adder: (agent: AgentHandle, tools: readonly AgentTool[]) => boolean): void {
  addTools = adder;
}

/**
 * Attaches `memory` to `agent`: registers its hooks and adds its tools. `new Agent({ memory })` does
 * it; a Graph or Swarm holding a memory does it for each agent it runs. Attaching the same memory
 * twice does nothing.
 */
export function attachMemory(agent: AgentHandle, memory: AgentMemory): void {
  const memories = attached.get(agent) ?? new Set<AgentMemory>();
  if (memories.has(memory)) return;
  if (memory.tools.length > 0 && !addTools?.(agent, memory.tools))
    throw new TypeError('attachMemory needs an Agent built by this copy of @skein/core.');
  agent.hooks.addHook(memory);
  memories.add(memory);
  attached.set(agent, memories);
}
