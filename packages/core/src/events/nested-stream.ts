import type { AgentStreamEvent } from '../agent/agent-events.js';
import type { RunPlace } from './event-place.js';

/**
 * How a tool that runs an agent (`asTool`) hands that agent's events to the stream of the agent
 * running the tool: where the tool's agent stands, how deep the stream reaches, and `forward`, which
 * takes a `toolStream` event (a promise when the reader must take it first: await it then).
 */
export interface NestedStream extends RunPlace {
  forward(event: AgentStreamEvent): Promise<void> | undefined;
}

/** The nested stream of a tool call, by its tool context (set only when someone sees the events). */
const byContext = new WeakMap<object, NestedStream>();

/** Gives a tool call's context the stream its nested agent's events go to. */
export function attachNestedStream(context: object, stream: NestedStream): void {
  byContext.set(context, stream);
}

/** The stream a tool call's nested agent's events go to; `undefined`: nobody sees them (run it with `invoke`). */
export function nestedStreamOf(context: object): NestedStream | undefined {
  return byContext.get(context);
}
