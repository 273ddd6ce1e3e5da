import { AfterToolCallEvent, BeforeToolCallEvent } from '../hooks/events.js';
import { errorMessage } from '../errors/error-message.js';
import { BudgetStopRaised } from '../budget/budget-stop-raised.js';
import type { BudgetExceeded } from '../budget/budget-types.js';
import {
  attachAnswers,
  attachNestedState,
  InterruptRaised,
  type Interrupt,
  type NestedAgentState,
} from '../interrupt/interrupt.js';
import { ToolCallContext } from './tool-call-context.js';
import type { AgentTool, ToolContext } from '../tools/agent-tool.js';
import type { JsonValue } from '../types/json.js';
import { errorToolResult, type ToolResult, type ToolUse } from '../types/messages.js';
import { raceAbort } from './abort-race.js';
import { askPerson, checkApproval } from './ask.js';
import { attachToolScope } from '../budget/open-scope.js';
import { attachNestedStream, type NestedStream } from '../events/nested-stream.js';
import { handGuardrails } from '../guardrails/handed-guardrails.js';
import type { Invocation, LoopHost } from './loop-host.js';
import { guardToolResult, nestedTrip } from '../guardrails/tool-guard.js';
import { GuardrailTripped } from '../errors/guardrail-errors.js';

/**
 * A tool use that did not finish and has no result yet: it waits for answers (`interrupts`), or the
 * budget stopped it (`budget`: refused before it ran, or its nested agent stopped). `nested`: where
 * the nested agent it runs stood, kept for the resume.
 */
export interface ToolPaused {
  interrupts: Interrupt[];
  budget?: BudgetExceeded;
  nested?: NestedAgentState | undefined;
}

/** What BeforeToolCallEvent hooks decided: the tool to run (maybe swapped) and whether to cancel it (with why). */
interface BeforeTool {
  selected: AgentTool | undefined;
  cancel: boolean | string;
}

/**
 * Runs one tool use through the hooks: BeforeToolCall (may swap or cancel the tool, or ask a
 * person), approval when the tool needs it, the tool itself (validation, unknown names and throws
 * become error results), AfterToolCall (may replace the result). Never throws for a tool's fault;
 * the model reads what went wrong. A hook or tool that asks a person pauses the use instead.
 * `forward`: where the events of an agent the tool runs go (see `NestedStream`), when someone sees them.
 */
export async function runTool(
  host: LoopHost,
  inv: Invocation,
  toolUse: ToolUse,
  found: AgentTool | undefined,
  invalidInput: string | undefined,
  forward?: NestedStream['forward'],
): Promise<ToolResult | ToolPaused> {
  const { hooks } = host;
  const interrupt = interruptFor(inv, host.agent.name, toolUse);
  let selected = found;
  let cancel: boolean | string = false;
  if (hooks.has(BeforeToolCallEvent)) {
    try {
      ({ selected, cancel } = await beforeTool(host, inv, toolUse, found, interrupt));
    } catch (e) {
      return paused(inv, e);
    }
  }
  const context = toolContext(host, inv, toolUse, interrupt);
  if (forward && inv.nested) attachNestedStream(context, { ...inv.nested, forward });
  let denied: string | undefined;
  if (selected?.needsApproval && cancel === false && invalidInput === undefined) {
    try {
      denied = await checkApproval(selected, context);
    } catch (e) {
      return paused(inv, e);
    }
  }
  const started = performance.now();
  const refusal = denied ?? notRun(host, inv, toolUse, selected, cancel, invalidInput);
  let result: ToolResult;
  let error: unknown;
  if (refusal !== undefined || !selected) {
    result = errorToolResult(toolUse.toolUseId, refusal ?? '');
  } else {
    try {
      result = normalizeResult(await startTool(inv, selected, toolUse, context), toolUse);
    } catch (e) {
      if (e instanceof InterruptRaised || e instanceof BudgetStopRaised) return paused(inv, e);
      if (GuardrailTripped.is(e)) throw await nestedTrip(inv, host.agent.name, e);
      error = e;
      result = errorToolResult(toolUse.toolUseId, `Error: ${errorMessage(e)}`);
    }
  }
  if (inv.guards && selected && refusal === undefined) result = await guardToolResult(inv, toolUse, selected, result);
  inv.metrics.recordTool(toolUse.name, result.status === 'success', performance.now() - started);
  if (!hooks.has(AfterToolCallEvent)) return result;
  const fields = {
    toolUse,
    selectedTool: selected,
    invocationState: inv.invocationState,
    result,
    error,
  };
  return (await hooks.invoke(new AfterToolCallEvent(host.agent, fields))).result;
}

/** Fires BeforeToolCallEvent: its hooks may swap or cancel the tool, or ask a person (which throws). */
async function beforeTool(
  host: LoopHost,
  inv: Invocation,
  toolUse: ToolUse,
  found: AgentTool | undefined,
  interrupt: (name: string, reason?: JsonValue) => JsonValue,
): Promise<BeforeTool> {
  const fields = {
    toolUse,
    selectedTool: found,
    invocationState: inv.invocationState,
    interrupt,
  };
  const before = await host.hooks.invoke(new BeforeToolCallEvent(host.agent, fields));
  return { selected: before.selectedTool, cancel: before.cancel };
}

/** The context the tool receives: with the answers and nested state of a resumed turn, and its budget scope. */
function toolContext(
  host: LoopHost,
  inv: Invocation,
  toolUse: ToolUse,
  interrupt: (name: string, reason?: JsonValue) => JsonValue,
): ToolContext {
  const context: ToolContext = new ToolCallContext(host, inv, toolUse, interrupt);
  if (inv.resume) {
    attachAnswers(context, inv.resume.responses);
    const nested = inv.resume.turn.nested?.[toolUse.toolUseId];
    if (nested) attachNestedState(context, nested);
  }
  if (inv.budget) attachToolScope(context, inv.budget.scope, toolUse.name);
  if (inv.guards) handGuardrails(context, inv.guards);
  return context;
}

/** Why the use does not run (the error result the model reads), or `undefined` when it runs. */
function notRun(
  host: LoopHost,
  inv: Invocation,
  toolUse: ToolUse,
  selected: AgentTool | undefined,
  cancel: boolean | string,
  invalidInput: string | undefined,
): string | undefined {
  const { name } = toolUse;
  if (cancel !== false)
    return typeof cancel === 'string' ? cancel : `Tool ${name} was cancelled by a hook before it ran.`;
  if (invalidInput !== undefined)
    return `The input of tool ${name} was not valid JSON (${invalidInput}). Call it again with a JSON object.`;
  if (!selected) return `Unknown tool: ${name}. Available tools: ${[...host.tools.names()].join(', ') || 'none'}.`;
  if (inv.aborted) return `Tool ${name} was not run: the invocation was cancelled.`;
  return undefined;
}

/** Starts the tool, raced against the invocation's cancellation. */
function startTool(inv: Invocation, tool: AgentTool, toolUse: ToolUse, context: ToolContext): Promise<ToolResult> {
  return raceAbort(
    inv.signal,
    () => tool.invoke(toolUse.input, context),
    () => errorToolResult(toolUse.toolUseId, `Tool ${toolUse.name} was cancelled before it finished.`),
  );
}

/**
 * The `interrupt` of a tool use's context and BeforeToolCallEvent. Returned from here rather than
 * assigned to a local: builds that keep function names (tsx, esbuild's keepNames) then do not add a
 * defineProperty call to every tool call.
 */
function interruptFor(
  inv: Invocation,
  source: string,
  toolUse: ToolUse,
): (name: string, reason?: JsonValue) => JsonValue {
  return (name, reason) => askPerson(inv, source, toolUse, name, reason);
}

/** A hook, approval or tool asked a person: the use pauses. Anything else thrown is a real failure. */
function paused(inv: Invocation, error: unknown): ToolPaused {
  if (error instanceof BudgetStopRaised) return { interrupts: [], budget: error.exceeded, nested: error.nested };
  if (!(error instanceof InterruptRaised)) throw error;
  inv.metrics.interruptCount += error.interrupts.length;
  return { interrupts: error.interrupts, nested: error.nested };
}

/** Guards against tools that return a malformed result or another use's id. */
function normalizeResult(raw: ToolResult, toolUse: ToolUse): ToolResult {
  if (!raw || !Array.isArray(raw.content) || (raw.status !== 'success' && raw.status !== 'error')) {
    return errorToolResult(
      toolUse.toolUseId,
      `Tool ${toolUse.name} returned a malformed result (expected { status, content: [...] }).`,
    );
  }
  return raw.toolUseId === toolUse.toolUseId ? raw : { ...raw, toolUseId: toolUse.toolUseId };
}
