import { InterruptRaised, interruptId, type ApprovalResponse, type Interrupt } from '../interrupt/interrupt.js';
import type { AgentTool, ToolContext } from '../tools/agent-tool.js';
import type { JsonValue } from '../types/json.js';
import { toolUsesOf, type ToolUse } from '../types/messages.js';
import type { Invocation } from './loop-host.js';

/**
 * Asks a person on behalf of `toolUse`: returns the answer the invocation was resumed with, or
 * throws `InterruptRaised` to pause. An answer counts only for the exact action it was given for: a
 * tool use whose input changed since it asked is asked again.
 */
export function askPerson(
  inv: Invocation,
  source: string,
  toolUse: ToolUse,
  name: string,
  reason: JsonValue | undefined,
): JsonValue {
  const id = interruptId(toolUse.toolUseId, name);
  const resume = inv.resume;
  const answer = resume?.responses.get(id);
  // An answer is for the tool use that asked, in the turn that resumed: a later turn's use with the
  // same id (models may reuse ids) and a use whose input changed since it asked are asked again.
  if (answer !== undefined && resume && toolUsesOf(resume.turn.message).includes(toolUse)) {
    const asked = resume.turn.interrupts.find((i) => i.id === id);
    if (!asked?.toolUse || sameJson(asked.toolUse.input, toolUse.input)) return answer;
  }
  // A snapshot: the answer is bound to the input as asked, even if a hook edits the use later.
  const interrupt: Interrupt = {
    id,
    name,
    reason: reason ?? null,
    toolUse: { ...toolUse, input: structuredClone(toolUse.input) },
    source,
  };
  throw new InterruptRaised([interrupt]);
}

/** Asks for approval when the tool wants it; returns the denial message, or `undefined` to run. */
export async function checkApproval(tool: AgentTool, context: ToolContext): Promise<string | undefined> {
  const rule = tool.needsApproval;
  if (rule === undefined || rule === false) return undefined;
  const { toolUse } = context;
  const needed = rule === true || (await rule(toolUse.input, context));
  if (!needed) return undefined;
  const answer = context.interrupt('approval', { tool: toolUse.name, input: toolUse.input });
  if (isApproved(answer)) return undefined;
  const note =
    typeof answer === 'object' && answer !== null && !Array.isArray(answer)
      ? (answer as Partial<ApprovalResponse>).message
      : undefined;
  return `The user denied ${toolUse.name}${typeof note === 'string' && note !== '' ? `: ${note}` : '.'} It was not run; do not call it again unless the user asks.`;
}

function isApproved(answer: JsonValue): boolean {
  if (answer === true) return true;
  return (
    typeof answer === 'object' &&
    answer !== null &&
    !Array.isArray(answer) &&
    (answer as Partial<ApprovalResponse>).approved === true
  );
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
