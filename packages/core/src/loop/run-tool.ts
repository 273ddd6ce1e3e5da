import { AfterToolCallEvent, BeforeToolCallEvent } from '../hooks/events.js';
import type { AgentTool, ToolContext } from '../tools/agent-tool.js';
import { errorToolResult, type ToolResult, type ToolUse } from '../types/messages.js';
import type { Invocation, LoopHost } from './loop-host.js';

/** The message of any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Resolves with an error result when `signal` aborts, so an unresponsive tool cannot hold the loop. */
function whenAborted(signal: AbortSignal, toolUse: ToolUse): { promise: Promise<ToolResult>; dispose: () => void } {
  let onAbort: (() => void) | undefined;
  const promise = new Promise<ToolResult>((resolve) => {
    onAbort = () => resolve(errorToolResult(toolUse.toolUseId, `Tool ${toolUse.name} was cancelled before it finished.`));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => onAbort && signal.removeEventListener('abort', onAbort) };
}

/**
 * Runs one tool use through the hooks: BeforeToolCall (may swap or cancel the tool), the tool itself
 * (validation, unknown names and throws become error results), AfterToolCall (may replace the result).
 * Never throws for a tool's fault; the model reads what went wrong.
 */
export async function runTool(
  host: LoopHost,
  inv: Invocation,
  toolUse: ToolUse,
  found: AgentTool | undefined,
  invalidInput: string | undefined,
): Promise<ToolResult> {
  const { hooks, agent } = host;
  let selected = found;
  let cancel: boolean | string = false;
  if (hooks.has(BeforeToolCallEvent)) {
    const before = await hooks.invoke(new BeforeToolCallEvent(agent, { toolUse, selectedTool: selected, invocationState: inv.invocationState }));
    selected = before.selectedTool;
    cancel = before.cancel;
  }
  const id = toolUse.toolUseId;
  const started = performance.now();
  let result: ToolResult;
  let error: unknown;
  if (cancel !== false) {
    result = errorToolResult(id, typeof cancel === 'string' ? cancel : `Tool ${toolUse.name} was cancelled by a hook before it ran.`);
  } else if (invalidInput !== undefined) {
    result = errorToolResult(id, `The input of tool ${toolUse.name} was not valid JSON (${invalidInput}). Call it again with a JSON object.`);
  } else if (!selected) {
    const names = [...host.tools.names()].join(', ') || 'none';
    result = errorToolResult(id, `Unknown tool: ${toolUse.name}. Available tools: ${names}.`);
  } else if (inv.signal.aborted) {
    result = errorToolResult(id, `Tool ${toolUse.name} was not run: the invocation was cancelled.`);
  } else {
    const context: ToolContext = { agent, toolUse, invocationState: inv.invocationState, signal: inv.signal };
    const abort = whenAborted(inv.signal, toolUse);
    try {
      const raw = await Promise.race([selected.invoke(toolUse.input, context), abort.promise]);
      result = normalizeResult(raw, toolUse);
    } catch (e) {
      error = e;
      result = errorToolResult(id, `Error: ${errorMessage(e)}`);
    } finally {
      abort.dispose();
    }
  }
  inv.metrics.recordTool(toolUse.name, result.status === 'success', performance.now() - started);
  if (hooks.has(AfterToolCallEvent)) {
    const after = await hooks.invoke(
      new AfterToolCallEvent(agent, { toolUse, selectedTool: selected, invocationState: inv.invocationState, result, error }),
    );
    result = after.result;
  }
  return result;
}

/** Guards against tools that return a malformed result or another use's id. */
function normalizeResult(raw: ToolResult, toolUse: ToolUse): ToolResult {
  if (!raw || !Array.isArray(raw.content) || (raw.status !== 'success' && raw.status !== 'error')) {
    return errorToolResult(toolUse.toolUseId, `Tool ${toolUse.name} returned a malformed result (expected { status, content: [...] }).`);
  }
  return raw.toolUseId === toolUse.toolUseId ? raw : { ...raw, toolUseId: toolUse.toolUseId };
}
