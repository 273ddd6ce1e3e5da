import {
  AfterMultiAgentInvocationEvent,
  BeforeMultiAgentInvocationEvent,
  GuardrailTripped,
  OrchestratorBudget,
  openOrchestratorTurn,
  taskText,
  type AgentMemory,
  type HookRegistry,
  type InvocationState,
  type MultiAgentBase,
  type MultiAgentInvokeOptions,
  type MultiAgentTask,
} from '@skein/core';
import { checkTask } from './guarded-task.js';
import { MemberClock } from './member-clock.js';
import { waitingFor } from './paused-turn.js';
import type { SwarmEmit } from './swarm-event.js';
import type { SwarmLog } from './swarm-log.js';
import { runSwarmLoop } from './swarm-loop.js';
import type { SwarmResult } from './swarm-result.js';
import type { SwarmRun } from './swarm-run.js';

/** What one invocation reads of its swarm. */
export interface InvocationHost {
  swarm: MultiAgentBase;
  hooks: HookRegistry;
  run: SwarmRun;
  log: SwarmLog;
  /** The swarm's own memory (`undefined`: none). */
  memory: AgentMemory | undefined;
  /** Called with a run that finished (`completed` or `failed`), before the after-invocation hooks. */
  finished(result: SwarmResult): void;
}

/**
 * One invocation of an initialized swarm: opens the run (answers, a resume or a fresh start), runs
 * its loop, commits, reports. A guardrail that tripped is thrown after the run is committed.
 */
export async function invokeSwarm(
  host: InvocationHost,
  task: MultiAgentTask,
  options: MultiAgentInvokeOptions,
  quiet: boolean,
  emit: SwarmEmit,
): Promise<SwarmResult> {
  const { run, hooks, swarm } = host;
  const invocationState: InvocationState = options.invocationState ?? {};
  const checked = await checkTask(run, task, options, host.log.journal.sessionId);
  const state = await run.open(checked, invocationState, emit);
  const owned = options.invocationState === undefined;
  const budget = OrchestratorBudget.open(options.budget, invocationState, owned, swarm, 'swarm', state.budget);
  run.budget = budget;
  const started = performance.now();
  const before = state.elapsedMs;
  const elapsed = (): number => before + (performance.now() - started);
  await hooks.invoke(new BeforeMultiAgentInvocationEvent(swarm, invocationState));
  const clock = new MemberClock(options.signal);
  const memory = openOrchestratorTurn(host.memory, options.memory, run.context.conversation.inputHistory);
  try {
    const { guardrails, principal } = options;
    await runSwarmLoop(run, run.parts, state, {
      invocationState,
      clock,
      quiet,
      elapsed,
      emit,
      guardrails,
      principal,
      memory: memory.target,
      depth: options.depth,
    });
  } finally {
    clock.dispose();
  }
  const tripped = run.tripped;
  run.tripped = undefined;
  state.elapsedMs = elapsed();
  await run.commit(state, emit);
  await host.log.journal.settle();
  const result = run.result(state);
  if (checked !== task) result.rewrittenTask = taskText(checked);
  if (budget) Object.assign(result, budget.report());
  const asked = waitingFor(state);
  if (asked.length > 0) result.interrupts = asked;
  if (state.status === 'completed' || state.status === 'failed') host.finished(result);
  await memory.close(result);
  await hooks.invoke(new AfterMultiAgentInvocationEvent(swarm, { invocationState, result }));
  if (tripped)
    throw new GuardrailTripped({
      ...tripped.trip,
      cause: tripped.cause,
      result,
    });
  return result;
}
