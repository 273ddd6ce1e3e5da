import type { JsonObject, JsonValue } from '../types/json.js';
import { errorToolResult, toolUsesOf, type Message, type ToolResult } from '../types/messages.js';
import { InterruptResponseError, type Interrupt, type InterruptResponse, type NestedAgentState } from './interrupt.js';

/**
 * A turn paused by interrupts, or stopped by the budget between its tool uses: the assistant message
 * that asked for tools (kept out of the history until every tool use has its result), the results of
 * the tool uses that already ran, the interrupts waiting for an answer (none when the budget stopped
 * it: a resume with a larger budget runs the uses without a result) and, for a use that ran a nested
 * agent, where that agent stood. The agent keeps it in memory; session managers store it with the
 * agent (`_internal_state.interrupt_state`).
 */
export interface PendingTurn {
  /** The assistant message with the tool uses, not yet in the history. */
  readonly message: Message;
  /** Results by position of the tool use in `message` (`null`: not run yet). */
  readonly results: readonly (ToolResult | null)[];
  readonly interrupts: readonly Interrupt[];
  /** Nested agents that paused or stopped, by tool use id. */
  readonly nested?: Readonly<Record<string, NestedAgentState>>;
}

/** Answers for the interrupts of a pending turn, checked against it. */
export interface ResumeAnswers {
  readonly turn: PendingTurn;
  readonly responses: ReadonlyMap<string, JsonValue>;
}

/** Checks that `responses` answer exactly the pending interrupts (all of them, nothing else). */
export function checkResponses(turn: PendingTurn | undefined, responses: readonly InterruptResponse[]): ResumeAnswers {
  if (!turn) {
    throw new InterruptResponseError(
      'Nothing is waiting for an answer: this agent has no pending interrupts. Invoke it with a prompt instead of interruptResponse blocks.',
      [],
    );
  }
  return { turn, responses: matchResponses(turn.interrupts, responses) };
}

/** Resumes a turn the budget stopped (it waits for no answer): its uses without a result run. */
export function resumeStopped(turn: PendingTurn): ResumeAnswers {
  return { turn, responses: new Map() };
}

/**
 * Matches answers to the interrupts that wait for them: every one answered once, no unknown id.
 * Throws `InterruptResponseError` naming the pending ids otherwise.
 */
export function matchResponses(
  pending: readonly Interrupt[],
  responses: readonly InterruptResponse[],
): Map<string, JsonValue> {
  const pendingIds = pending.map((i) => i.id);
  const list = (ids: readonly string[]): string => ids.map((id) => JSON.stringify(id)).join(', ');
  const map = new Map<string, JsonValue>();
  for (const r of responses) {
    if (!pendingIds.includes(r.interruptId)) {
      throw new InterruptResponseError(
        `No pending interrupt has id ${JSON.stringify(r.interruptId)}. Pending: ${list(pendingIds)}.`,
        pendingIds,
      );
    }
    if (map.has(r.interruptId))
      throw new InterruptResponseError(
        `Interrupt ${JSON.stringify(r.interruptId)} was answered twice; answer it once.`,
        pendingIds,
      );
    map.set(r.interruptId, r.response);
  }
  const missing = pendingIds.filter((id) => !map.has(id));
  if (missing.length > 0) {
    throw new InterruptResponseError(
      `Answer every pending interrupt at once; missing: ${list(missing)}. Pending: ${list(pendingIds)}.`,
      pendingIds,
    );
  }
  return map;
}

/** The user message that closes a pending turn nobody answered: its results, or errors for the uses without one. */
export function closingResults(turn: PendingTurn): Message {
  return { role: 'user', content: unansweredResults(turn).map((toolResult) => ({ toolResult })) };
}

/** The tool results that close a pending turn nobody answered (a plain prompt came instead). */
function unansweredResults(turn: PendingTurn): ToolResult[] {
  return toolUsesOf(turn.message).map(
    (use, i) =>
      turn.results[i] ??
      errorToolResult(
        use.toolUseId,
        `Tool ${use.name} was not run: it waited for an answer (${waitingFor(turn, use.toolUseId)}) and none came before the next prompt.`,
      ),
  );
}

function waitingFor(turn: PendingTurn, toolUseId: string): string {
  const names = turn.interrupts.filter((i) => i.toolUse?.toolUseId === toolUseId).map((i) => i.name);
  if (names.length > 0) return names.join(', ');
  return turn.interrupts.length === 0 ? 'a resume after the run stopped at its budget' : 'interrupt';
}

/** The stored form of a pending turn (JSON; bytes are encoded by the repository codec). */
export function pendingTurnToJson(turn: PendingTurn): JsonObject {
  const json = { message: turn.message, results: turn.results, interrupts: turn.interrupts };
  return (turn.nested ? { ...json, nested: turn.nested } : json) as unknown as JsonObject;
}

/** Reads a stored pending turn back; `undefined` for anything that is not one. */
export function pendingTurnFromJson(value: unknown): PendingTurn | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as { message?: unknown; results?: unknown; interrupts?: unknown; nested?: unknown };
  if (typeof v.message !== 'object' || v.message === null || !Array.isArray(v.results) || !Array.isArray(v.interrupts))
    return undefined;
  const turn = {
    message: v.message as Message,
    results: v.results as (ToolResult | null)[],
    interrupts: v.interrupts as Interrupt[],
  };
  const nested = v.nested;
  if (typeof nested !== 'object' || nested === null || Array.isArray(nested)) return turn;
  return { ...turn, nested: nested as Record<string, NestedAgentState> };
}
