import { taskText } from '../guardrails/guard-task.js';
import { isAgent } from '../multiagent/runnable.js';
import type { MultiAgentResult, MultiAgentTask } from '../multiagent/multi-agent.js';
import { type AgentMemory, attachMemory } from './agent-memory.js';
import type { MemoryTarget } from './memory-target.js';

/** What an orchestrator does with its memory around one run. */
export interface OrchestratorTurn {
  /** The target each node is invoked with (`undefined`: none). */
  readonly target: MemoryTarget | undefined;
  /** Records the run when it completed: its task and its answer. */
  close(result: MultiAgentResult): Promise<void>;
}

const NO_TURN: OrchestratorTurn = { target: undefined, close: async () => undefined };

/** The answer of a run: a swarm's `text`, else the text of the node that finished last. */
export function answerOf(result: MultiAgentResult): string | undefined {
  const own = (result as { text?: unknown }).text;
  if (typeof own === 'string') return own;
  const order = (result as { executionOrder?: unknown }).executionOrder;
  const last = Array.isArray(order) ? order[order.length - 1] : undefined;
  return typeof last === 'string' ? result.results[last]?.text : undefined;
}

/**
 * Attaches an orchestrator's memory to each of its agents (nested orchestrators get the run's target
 * and use their own memory, if any). Graph and Swarm call it once, when built.
 */
export function attachMemberMemory(memory: AgentMemory | undefined, members: Iterable<unknown>): void {
  if (!memory) return;
  for (const m of members) if (isAgent(m)) attachMemory(m, memory);
}

/**
 * Opens one run's memory: with a memory and a target, a turn its nodes read under (recall once, with
 * the task as the query) that `close` records when the run completed; with a target only, the target
 * passed on to the nodes as is; else nothing.
 */
export function openOrchestratorTurn(
  memory: AgentMemory | undefined,
  target: MemoryTarget | undefined,
  task: MultiAgentTask,
): OrchestratorTurn {
  if (!target) return NO_TURN;
  if (!memory) return { target, close: async () => undefined };
  const turn = memory.openTurn(target, taskText(task));
  return {
    target: turn,
    close: async (result) => {
      if (result.status === 'completed') await memory.closeTurn(turn, answerOf(result));
    },
  };
}
