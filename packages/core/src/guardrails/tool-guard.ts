/**
 * Tool guardrails: the agent's (and its caller's) `toolGuardrails` and a tool's own `guardrails`, on
 * each call before it runs (checked for the whole answer before the answer enters the history, so a
 * rewritten input is what is stored and what hooks, traces and the tool see) and on its result after
 * (before AfterToolCallEvent, so a redaction reaches traces too). A retry refuses the call or the
 * result with the feedback as the error result the model reads; a block ends the turn.
 */
import type { AgentTool } from '../tools/agent-tool.js';
import type { Invocation, LoopHost } from '../loop/loop-host.js';
import type { ModelTurn } from '../loop/stream-accumulator.js';
import { errorToolResult, toolUsesOf, type ToolResult, type ToolUse } from '../types/messages.js';
import { afterModelCall } from './output-guard.js';
import type { GuardRun } from './guard-run.js';
import type { GuardrailTripped } from '../errors/guardrail-errors.js';
import type { Guardrail, GuardrailDecision, ToolSubject } from './guardrail.js';
import { runChecks, type Verdict } from './run-checks.js';
import { emitTrip } from './tripwire.js';

/** What a model call offered, as the checks need it: handoffs are not checked, invocation tools are. */
interface Offered {
  readonly handoffs: ReadonlyMap<string, unknown> | undefined;
  readonly extras: ReadonlyMap<string, AgentTool> | undefined;
}

/** The guardrails of a call of `tool`: the invocation's, then the tool's own. */
function guardrailsOf(guards: GuardRun, tool: AgentTool | undefined): readonly Guardrail<ToolSubject>[] {
  const own = guards.toolsHaveGuardrails ? tool?.guardrails : undefined;
  if (!own || own.length === 0) return guards.tool;
  return guards.tool.length === 0 ? own : [...guards.tool, ...own];
}

/**
 * Checks the tool uses of an answer before it enters the history: rewritten inputs are changed in
 * place, uses a guardrail refused get their error result in `turn.refused`; a block throws the trip.
 */
async function guardToolUses(
  host: LoopHost,
  inv: Invocation,
  turn: ModelTurn,
  uses: readonly ToolUse[],
  offered: Offered,
): Promise<void> {
  const guards = inv.guards as GuardRun;
  for (const use of uses) {
    if (offered.handoffs?.has(use.name) || turn.invalidInputs?.has(use.toolUseId)) continue;
    const list = guardrailsOf(guards, offered.extras?.get(use.name) ?? host.tools.get(use.name));
    if (list.length === 0) continue;
    const subject: ToolSubject = { tool: use.name, input: use.input, phase: 'before' };
    const verdict = await runChecks(list, subject, guards.scopeAt('tool'), rewriteTool);
    if (verdict.action === 'pass') {
      if (verdict.rewritten) use.input = verdict.subject.input;
    } else if (verdict.action === 'retry') {
      const refusal = `Guardrail ${verdict.guardrail} refused this call of ${use.name}: ${verdict.feedback}`;
      (turn.refused ??= new Map()).set(use.toolUseId, refusal);
    } else {
      await trip(inv, guards, verdict, use.name);
    }
  }
}

/**
 * Checks the tool uses of a model's answer (see `guardToolUses`), inside the model call: a block fires
 * AfterModelCallEvent with the trip in place of the answer, as an output block does, then throws it.
 * A promise only when the answer holds tool uses.
 */
export function guardCalls(
  host: LoopHost,
  inv: Invocation,
  turn: ModelTurn,
  offered: Offered,
): Promise<void> | undefined {
  const uses = toolUsesOf(turn.message);
  return uses.length === 0 ? undefined : guardAll(host, inv, turn, uses, offered);
}

async function guardAll(
  host: LoopHost,
  inv: Invocation,
  turn: ModelTurn,
  uses: readonly ToolUse[],
  offered: Offered,
): Promise<void> {
  try {
    await guardToolUses(host, inv, turn, uses, offered);
  } catch (error) {
    await afterModelCall(host, inv, error);
    throw error;
  }
}

/** Checks a tool's result after it ran: the result to go on with (maybe rewritten, or refused); a block throws the trip. */
export async function guardToolResult(
  inv: Invocation,
  use: ToolUse,
  tool: AgentTool,
  result: ToolResult,
): Promise<ToolResult> {
  const guards = inv.guards as GuardRun;
  const list = guardrailsOf(guards, tool);
  if (list.length === 0) return result;
  const subject: ToolSubject = { tool: use.name, input: use.input, result, phase: 'after' };
  const verdict = await runChecks(list, subject, guards.scopeAt('tool'), rewriteTool);
  if (verdict.action === 'pass') {
    const after = verdict.subject as ToolSubject & { phase: 'after' };
    return verdict.rewritten ? { ...after.result, toolUseId: use.toolUseId } : result;
  }
  if (verdict.action === 'retry')
    return errorToolResult(
      use.toolUseId,
      `Guardrail ${verdict.guardrail} withheld the result of ${use.name}: ${verdict.feedback}`,
    );
  return trip(inv, guards, verdict, use.name);
}

/** A trip in an agent a tool ran (`asTool`): the caller's turn ends too, the path naming both (`desk/refund`). */
export async function nestedTrip(
  inv: Invocation,
  agentName: string,
  tripped: GuardrailTripped,
): Promise<GuardrailTripped> {
  const outer = tripped.within(inv.guards?.path ?? agentName);
  if (inv.guards) inv.guards.tripped ??= outer;
  await emitTrip(inv.emit, inv.unobserved, outer);
  return outer;
}

async function trip(
  inv: Invocation,
  guards: GuardRun,
  verdict: Extract<Verdict<ToolSubject>, { action: 'block' }>,
  tool: string,
): Promise<never> {
  const tripped = guards.trip(
    { guardrail: verdict.guardrail, reason: verdict.reason, where: 'tool', tool },
    verdict.cause,
  );
  await emitTrip(inv.emit, inv.unobserved, tripped);
  throw tripped;
}

/** A rewrite of a call's `input` (before) or its `result` (after). */
function rewriteTool(subject: ToolSubject, decision: GuardrailDecision & { action: 'rewrite' }): ToolSubject | string {
  if (subject.phase === 'before') {
    if (!('input' in decision)) return 'a tool guardrail rewrites a call with { action: "rewrite", input }';
    return { ...subject, input: decision.input };
  }
  const result = 'result' in decision ? decision.result : undefined;
  if (!result || !Array.isArray(result.content) || (result.status !== 'success' && result.status !== 'error'))
    return 'a tool guardrail rewrites a result with { action: "rewrite", result: { status, content: [...] } }';
  return { ...subject, result };
}
