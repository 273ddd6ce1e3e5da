import { GuardrailTripped } from '../errors/guardrail-errors.js';
import type { AgentTool } from '../tools/agent-tool.js';
import { errorToolResult, type ToolResult } from '../types/messages.js';
import type { AgentResult } from './agent-result.js';
import type { JsonObject } from '../types/json.js';
import type { Message } from '../types/messages.js';
import type { AgentHandle, InvokeOptions } from './agent-handle.js';
import type { Prompt } from './prompt.js';
import type { ToolUse } from '../types/messages.js';
import { attachPlace, type PlacedReader } from '../events/event-place.js';
import { isStreamClosed } from '../events/lockstep-stream.js';
import type { AgentStreamEvent } from './agent-events.js';
import { nestedStreamOf, type NestedStream } from '../events/nested-stream.js';
import { handedGuardrails } from '../guardrails/handed-guardrails.js';
import { toolBudgetScope } from '../budget/open-scope.js';
import {
  answersOf,
  InterruptRaised,
  nestedStateOf,
  withSourcePrefix,
  type InterruptResponseBlock,
  type NestedAgentState,
} from '../interrupt/interrupt.js';
import { pendingTurnOf, setPendingTurn } from '../interrupt/pending-access.js';
import { pendingTurnFromJson, pendingTurnToJson } from '../interrupt/pending-turn.js';
import { BudgetStopRaised } from '../budget/budget-stop-raised.js';
import { decodeBytes } from '../session/session-codec.js';
import type { JsonValue } from '../types/json.js';

/** Options of `agent.asTool()`. */
export interface AsToolOptions {
  /** Tool name. Default: the agent's name with characters outside [A-Za-z0-9_-] replaced by `_`. */
  name?: string;
  /** Tool description. Default: the agent's description. */
  description?: string;
  /** Keep the agent's history between calls (default false: each call starts from the history it had when wrapped). */
  preserveContext?: boolean;
}

/** Wraps an agent as a tool taking `{ input: string }` and answering with the agent's final text. */
export function agentAsTool(agent: AgentHandle, options: AsToolOptions): AgentTool {
  const name = options.name ?? agent.name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64);
  const initialMessages: Message[] = [...agent.messages];
  const initialState: JsonObject = agent.state.get();
  return {
    name,
    agent,
    spec: {
      name,
      description: options.description ?? agent.description ?? `Ask the ${agent.name} agent.`,
      inputSchema: {
        json: {
          type: 'object',
          properties: {
            input: { type: 'string', description: 'What to ask the agent' },
          },
          required: ['input'],
          additionalProperties: false,
        },
      },
    },
    async invoke(raw, context) {
      const input = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw['input'] : undefined;
      if (typeof input !== 'string')
        return errorToolResult(context.toolUse.toolUseId, `Invalid input for tool ${name}: input must be a string.`);
      // A call that paused or stopped earlier (maybe in another process) goes on from where its agent stood.
      const saved = nestedStateOf(context);
      if (saved) restoreNested(agent, saved);
      else if (!options.preserveContext) {
        agent.messages = [...initialMessages];
        agent.state.replace(initialState);
      }
      const prompt = saved ? resumePrompt(agent, answersOf(context)) : input;
      let result: AgentResult;
      try {
        const invokeOptions: InvokeOptions = {
          signal: context.signal,
          invocationState: context.invocationState,
          budget: toolBudgetScope(context),
          idempotencyScope: context.idempotencyKey,
          ...(context.principal !== undefined ? { principal: context.principal } : {}),
        };
        // The caller's output and tool guardrails check what the nested agent says and calls, as its own would.
        const guardrails = handedGuardrails(context);
        if (guardrails) invokeOptions.guardrails = guardrails;
        const stream = nestedStreamOf(context);
        result = stream
          ? await streamNested(agent, prompt, invokeOptions, stream, context.toolUse)
          : await agent.invoke(prompt, invokeOptions);
      } catch (error) {
        if (GuardrailTripped.is(error)) throw error; // a tripwire ends the caller's turn too
        if (isStreamClosed(error)) throw error; // the caller's reader stopped reading: unwind it too
        return errorToolResult(
          context.toolUse.toolUseId,
          `${agent.name} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (result.stopReason === 'interrupt') {
        const interrupts = result.interrupts.map((i) => withSourcePrefix(i, context.agent.name));
        throw new InterruptRaised(interrupts, nestedSnapshot(agent));
      }
      if (result.stopReason === 'budget_exceeded' && result.budgetExceeded) {
        throw new BudgetStopRaised(result.budgetExceeded, nestedSnapshot(agent));
      }
      return nestedResult(agent.name, context.toolUse.toolUseId, result);
    },
  };
}

/**
 * Runs the nested agent at its path (the caller's and its name), handing each of its events to the
 * calling agent's stream as a `toolStream` event, straight from the nested loop (no generator between).
 */
function streamNested(
  agent: AgentHandle,
  prompt: Prompt | undefined,
  options: InvokeOptions,
  stream: NestedStream,
  toolUse: ToolUse,
): Promise<AgentResult> {
  const reader = (e: AgentStreamEvent): Promise<void> | undefined =>
    stream.forward({
      type: 'toolStream',
      toolUse,
      event: e,
      path: e.path,
      depth: e.depth,
    });
  const place = {
    path: `${stream.path}/${agent.name}`,
    maxDepth: stream.maxDepth,
    reader: reader as PlacedReader,
  };
  return agent.invoke(prompt, attachPlace(options, place));
}

/** Where a nested agent stands now, for the outer agent's pending turn. */
function nestedSnapshot(agent: AgentHandle): NestedAgentState {
  const turn = pendingTurnOf(agent);
  const interruptState = turn ? pendingTurnToJson(turn) : undefined;
  return {
    messages: [...agent.messages],
    state: agent.state.get(),
    ...(interruptState ? { interruptState } : {}),
  };
}

/** Puts a nested agent back where a pause or stop left it. */
function restoreNested(agent: AgentHandle, saved: NestedAgentState): void {
  agent.messages = decodeBytes(saved.messages) as Message[];
  agent.state.replace(saved.state);
  const turn = saved.interruptState && (decodeBytes(saved.interruptState) as JsonObject);
  setPendingTurn(agent, turn === undefined ? undefined : pendingTurnFromJson(turn));
}

/**
 * What the caller reads: the final text as a success when the nested agent answered (`end_turn`,
 * `stop_sequence`); an error result saying why otherwise (cut at max_tokens, with the partial text;
 * cancelled; stopped by a content filter or guardrail; a transfer it cannot make as a tool).
 */
function nestedResult(name: string, toolUseId: string, result: AgentResult): ToolResult {
  const text = String(result);
  const partial = text ? ` Its partial answer: ${text}` : '';
  switch (result.stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return { toolUseId, status: 'success', content: [{ text }] };
    case 'max_tokens':
      return errorToolResult(
        toolUseId,
        `${name} stopped at max_tokens before it finished; the answer is incomplete.${partial}`,
      );
    case 'cancelled':
      return errorToolResult(toolUseId, `${name} was cancelled before it answered.${partial}`);
    case 'handoff':
      return errorToolResult(
        toolUseId,
        `${name} tried to transfer to ${
          result.handoff?.target.name ?? 'another agent'
        }, which an agent used as a tool cannot do; no answer.`,
      );
    default:
      return errorToolResult(toolUseId, `${name} stopped (${result.stopReason}) without an answer.${partial}`);
  }
}

/**
 * How a nested agent that paused or stopped goes on: with the answers to its pending interrupts when
 * all of them are answered, else from where it stood (`undefined`: no new prompt).
 */
function resumePrompt(
  agent: AgentHandle,
  answers: ReadonlyMap<string, JsonValue> | undefined,
): InterruptResponseBlock[] | undefined {
  const pending = agent.interrupts;
  if (pending.length === 0 || !answers || !pending.every((i) => answers.has(i.id))) return undefined;
  return pending.map((i) => ({
    interruptResponse: {
      interruptId: i.id,
      response: answers.get(i.id) as JsonValue,
    },
  }));
}
