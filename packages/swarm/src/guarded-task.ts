/** The swarm's own input guardrails: the task of a fresh run is checked before the first member runs. */
import { guardTask, type MultiAgentInvokeOptions, type MultiAgentTask } from '@skein/core';
import type { SwarmRun } from './swarm-run.js';

/** The task the run starts with (rewritten or not); a block throws `GuardrailTripped` before anything is stored. */
export function checkTask(
  run: SwarmRun,
  task: MultiAgentTask,
  options: MultiAgentInvokeOptions,
  sessionId: string | undefined,
): MultiAgentTask | Promise<MultiAgentTask> {
  const guardrails = run.parts.guardrails?.inputGuardrails;
  if (!guardrails || guardrails.length === 0 || !run.startsFresh(task)) return task;
  return guardTask(guardrails, task, {
    path: options.guardrails?.path ?? '',
    principal: options.principal,
    invocationState: options.invocationState ?? {},
    signal: options.signal,
    scope: `${sessionId ?? ''}/${run.parts.swarm.id}`,
  });
}
