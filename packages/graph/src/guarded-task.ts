/** The graph's own guardrails at the edges of a run: its task checked before any node runs, and the trip that ended a run. */
import {
  guardTask,
  promptResponses,
  type GuardrailTrip,
  type MultiAgentInvokeOptions,
  type MultiAgentResult,
  type MultiAgentTask,
} from '@skein/core';
import type { GraphConfig } from './graph-types.js';

/** The task a new run starts with: checked by the graph's `inputGuardrails` (maybe rewritten); a block throws `GuardrailTripped`. */
export function checkTask(
  config: GraphConfig,
  task: MultiAgentTask,
  options: MultiAgentInvokeOptions,
  sessionId: string | undefined,
): MultiAgentTask | Promise<MultiAgentTask> {
  const guardrails = config.guardrails?.inputGuardrails;
  if (!guardrails || guardrails.length === 0 || promptResponses(task)) return task;
  return guardTask(guardrails, task, {
    path: options.guardrails?.path ?? '',
    principal: options.principal,
    invocationState: options.invocationState ?? {},
    signal: options.signal,
    scope: `${sessionId ?? ''}/${config.id}`,
  });
}

/** The trip that ended a run (a node a guardrail blocked), if one did. */
export function trippedBy(result: MultiAgentResult): GuardrailTrip | undefined {
  if (result.status !== 'failed') return undefined;
  for (const node of Object.values(result.results))
    if (node.status === 'failed' && node.guardrail) return node.guardrail;
  return undefined;
}
