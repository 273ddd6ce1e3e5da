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
import type { Invocation, LoopHost } from './loop-host.js';

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

/**
 * Runs one tool use through the hooks: BeforeToolCall (may swap or cancel the tool, or ask a
 * person), approval when the tool needs it, the tool itself (validation, unknown names and throws
 * become error results), AfterToolCall (may replace the result). Never throws for a tool's fault;
 * the model reads what went wrong. A hook or tool that asks a person pauses the use instead.
 */
export async function runTool(
  host: LoopHost,
  inv: Invocation,
  toolUse: ToolUse,
  found: AgentTool | undefined,
  invalidInput: string | undefined,
): Promise<ToolResult | ToolPaused> {
  const { hooks, agent } = host;
  const interrupt = interruptFor(inv, agent.name, toolUse);
  let selected = found;
  let cancel: boolean | string = false;
  if (hooks.has(BeforeToolCallEvent)) {
    try {
      const before = await hooks.invoke(
        new BeforeToolCallEvent(agent, {
          toolUse,
          selectedTool: selected,
          invocationState: inv.invocationState,
          interrupt,
        }),
      );
      selected = before.selectedTool;
      cancel = before.cancel;
    } catch (e) {
      return paused(inv, e);
    }
  }
  const id = toolUse.toolUseId;
  const context: ToolContext = new ToolCallContext(host, inv, toolUse, interrupt);
  if (inv.resume) {
    attachAnswers(context, inv.resume.responses);
    const nested = inv.resume.turn.nested?.[toolUse.toolUseId];
    if (nested) attachNestedState(context, nested);
  }
  if (inv.budget) attachToolScope(context, inv.budget.scope, toolUse.name);
  let denied: string | undefined;
  if (selected?.needsApproval && cancel === false && invalidInput === undefined) {
    try {
      denied = await checkApproval(selected, context);
    } catch (e) {
      return paused(inv, e);
    }
  }
  const started = performance.now();
  let result: ToolResult;
  let error: unknown;
  if (denied !== undefined) {
    result = errorToolResult(id, denied);
  } else if (cancel !== false) {
    result = errorToolResult(
      id,
      typeof cancel === 'string' ? cancel : `Tool ${toolUse.name} was cancelled by a hook before it ran.`,
    );
  } else if (invalidInput !== undefined) {
    result = errorToolResult(
      id,
      `The input of tool ${toolUse.name} was not valid JSON (${invalidInput}). Call it again with a JSON object.`,
    );
  } else if (!selected) {
    const names = [...host.tools.names()].join(', ') || 'none';
    result = errorToolResult(id, `Unknown tool: ${toolUse.name}. Available tools: ${names}.`);
  } else if (inv.signal.aborted) {
    result = errorToolResult(id, `Tool ${toolUse.name} was not run: the invocation was cancelled.`);
  } else {
    const tool = selected;
    try {
      const raw = await raceAbort(
        inv.signal,
        () => tool.invoke(toolUse.input, context),
        () => errorToolResult(id, `Tool ${toolUse.name} was cancelled before it finished.`),
      );
      result = normalizeResult(raw, toolUse);
    } catch (e) {
      if (e instanceof InterruptRaised || e instanceof BudgetStopRaised) return paused(inv, e);
      error = e;
      result = errorToolResult(id, `Error: ${errorMessage(e)}`);
    }
  }
  inv.metrics.recordTool(toolUse.name, result.status === 'success', performance.now() - started);
  if (hooks.has(AfterToolCallEvent)) {
    const after = await hooks.invoke(
      new AfterToolCallEvent(agent, {
        toolUse,
        selectedTool: selected,
        invocationState: inv.invocationState,
        result,
        error,
      }),
    );
    result = after.result;
  }
  return result;
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
