import { SkeinError, type SkeinErrorOptions } from '../errors/skein-error.js';
import type { JsonValue } from '../types/json.js';
import type { ToolUse } from '../types/messages.js';

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

/** Thrown inside skein to unwind a tool or hook that raised interrupts; the loop turns it into a pause. */
export class InterruptRaised extends Error {
  readonly interrupts: Interrupt[];
  constructor(interrupts: Interrupt[]) {
    super(`Interrupted: ${interrupts.map((i) => i.id).join(', ')} (skein pauses the invocation; do not catch this).`);
    this.interrupts = interrupts;
  }
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

/** Hands the answers of a resumed invocation to a tool that runs a nested agent (`asTool`). */
export function attachAnswers(context: object, answers: ReadonlyMap<string, JsonValue>): void {
  Object.defineProperty(context, ANSWERS, { value: answers, enumerable: false });
}

/** The answers a resumed invocation carries, for a tool running a nested agent. */
export function answersOf(context: object): ReadonlyMap<string, JsonValue> | undefined {
  return (context as { [ANSWERS]?: ReadonlyMap<string, JsonValue> })[ANSWERS];
}
