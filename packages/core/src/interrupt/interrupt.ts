import { SkeinError, type SkeinErrorOptions } from '../errors/skein-error.js';
import type { JsonObject, JsonValue } from '../types/json.js';
import type { Message, ToolUse } from '../types/messages.js';

/**
 * A question the run asks a person: it pauses the invocation (`stopReason: 'interrupt'`) until an
 * `interruptResponse` for its `id` comes back. An interrupt is a value, never an exception to catch.
 */
export interface Interrupt {
  /** Stable for (tool use or node, name): an answer given after a restart finds its interrupt. */
  id: string;
  /** What is asked, e.g. `approval`. */
  name: string;
  /** Why, as JSON (shown to the person). */
  reason: JsonValue;
  /** The tool use waiting for the answer, when a tool or a tool hook asked. */
  toolUse?: ToolUse;
  /** Who asked: the agent's name, or the node path (`graphNode/swarmNode/agent`) in an orchestrator. */
  source: string;
}

/** The answer to one interrupt; a prompt made of these resumes the paused invocation. */
export interface InterruptResponse {
  interruptId: string;
  response: JsonValue;
}

/** A prompt block carrying one answer: `agent.invoke([{ interruptResponse: { interruptId, response } }])`. */
export interface InterruptResponseBlock {
  interruptResponse: InterruptResponse;
}

/** The answer `needsApproval` expects. */
export interface ApprovalResponse {
  approved: boolean;
  /** Told to the model when the action is denied. */
  message?: string;
}

/** The id of the interrupt `name` raised for a tool use or a node. */
export function interruptId(owner: string, name: string): string {
  return `${owner}#${name}`;
}

/**
 * Thrown inside skein to unwind a tool or hook that raised interrupts; the loop turns it into a pause.
 * `nested`: where a nested agent (an agent used as a tool) stood when it paused, kept with the paused
 * turn so that a resume in another process continues it instead of asking again.
 */
export class InterruptRaised extends Error {
  readonly interrupts: Interrupt[];
  readonly nested: NestedAgentState | undefined;
  constructor(interrupts: Interrupt[], nested?: NestedAgentState) {
    super(`Interrupted: ${interrupts.map((i) => i.id).join(', ')} (skein pauses the invocation; do not catch this).`);
    this.interrupts = interrupts;
    this.nested = nested;
  }
}

/**
 * Where a nested agent (an agent used as a tool) stood when it paused or stopped: its history, its
 * state and its own turn waiting for answers. Stored with the outer agent's paused turn.
 */
export interface NestedAgentState {
  messages: Message[];
  state: JsonObject;
  interruptState?: JsonObject;
}

/** A resume prompt that does not fit the pending interrupts; nothing was changed. */
export class InterruptResponseError extends SkeinError {
  /** The ids still waiting for an answer. */
  readonly pendingIds: readonly string[];
  constructor(message: string, pendingIds: readonly string[], options: SkeinErrorOptions = {}) {
    super(message, options, 'interrupt_response');
    this.pendingIds = pendingIds;
  }
}

/** Prefixes an interrupt's source with the path of the node or agent that carries it. */
export function withSourcePrefix(interrupt: Interrupt, prefix: string): Interrupt {
  return { ...interrupt, source: `${prefix}/${interrupt.source}` };
}

const ANSWERS = Symbol.for('skein.interruptAnswers');
const NESTED = Symbol.for('skein.nestedAgentState');

/** Hands a resumed tool use the nested agent state its pause kept (see {@link NestedAgentState}). */
export function attachNestedState(context: object, nested: NestedAgentState): void {
  Object.defineProperty(context, NESTED, { value: nested, enumerable: false });
}

/** The nested agent state a resumed tool use carries, for a tool running a nested agent. */
export function nestedStateOf(context: object): NestedAgentState | undefined {
  return (context as { [NESTED]?: NestedAgentState })[NESTED];
}

/** Hands the answers of a resumed invocation to a tool that runs a nested agent (`asTool`). */
export function attachAnswers(context: object, answers: ReadonlyMap<string, JsonValue>): void {
  Object.defineProperty(context, ANSWERS, { value: answers, enumerable: false });
}

/** The answers a resumed invocation carries, for a tool running a nested agent. */
export function answersOf(context: object): ReadonlyMap<string, JsonValue> | undefined {
  return (context as { [ANSWERS]?: ReadonlyMap<string, JsonValue> })[ANSWERS];
}
