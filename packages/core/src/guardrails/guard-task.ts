/**
 * An orchestrator's own input guardrails (a Graph's or Swarm's `inputGuardrails`): its task is checked
 * once, before any node runs, the same way an agent checks its prompt. Parallel ones run before it
 * too: an orchestrator has no model call to start beside them.
 */
import type { Prompt } from '../agent/prompt.js';
import { promptToMessages } from '../agent/prompt.js';
import type { Principal } from '../doors/principal.js';
import { GuardrailTripped } from '../errors/guardrail-errors.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { CheckScope } from './check-context.js';
import type { Guardrail, InputSubject } from './guardrail.js';
import { inputSubject, rewriteInput } from './input-guard.js';
import { runChecks } from './run-checks.js';

/** The text of a task (a string, or its messages' text blocks joined as an input guardrail sees them). */
export function taskText(task: Prompt): string {
  return typeof task === 'string' ? task : inputSubject(promptToMessages(task)).text;
}

/** Where an orchestrator's task is checked. */
export interface TaskGuardContext {
  /** The orchestrator's path in the run tree (its id, or `outer/inner` when nested). */
  path: string;
  principal?: Principal | undefined;
  invocationState: InvocationState;
  signal?: AbortSignal | undefined;
  /** Who checks (the orchestrator's session and run), for the checks' idempotency keys. */
  scope: string;
}

/**
 * Checks `task` with `guardrails`: the task to run (rewritten or not), or `GuardrailTripped`
 * (`where: 'input'`) when one blocks. A task without messages (answers to interrupts) is not checked.
 */
export async function guardTask(
  guardrails: readonly Guardrail<InputSubject>[],
  task: Prompt,
  context: TaskGuardContext,
): Promise<Prompt> {
  if (guardrails.length === 0 || (typeof task !== 'string' && task.some((b) => 'interruptResponse' in b))) return task;
  const messages = promptToMessages(task);
  if (messages.length === 0) return task;
  const signal = context.signal ?? new AbortController().signal;
  const scope: CheckScope = {
    where: 'input',
    agent: undefined,
    path: context.path,
    principal: context.principal,
    invocationState: context.invocationState,
    signal: () => signal,
    position: () => context.scope,
  };
  const verdict = await runChecks(guardrails, inputSubject(messages), scope, rewriteInput);
  if (verdict.action === 'pass') {
    if (!verdict.rewritten) return task;
    return typeof task === 'string' ? verdict.subject.text : verdict.subject.messages.slice();
  }
  const reason = verdict.action === 'block' ? verdict.reason : verdict.feedback;
  const cause = verdict.action === 'block' ? verdict.cause : undefined;
  throw new GuardrailTripped({ guardrail: verdict.guardrail, reason, where: 'input', path: context.path, cause });
}
