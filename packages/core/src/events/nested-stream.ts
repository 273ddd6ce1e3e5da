import type { AgentEventData, AgentStreamEvent } from '../agent/agent-events.js';
import type { ToolUse } from '../types/messages.js';
import { depthOf, placeEvent, type RunPlace } from './event-place.js';

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

/**
 * For a tool that runs something other than a skein agent (a remote A2A agent): how it reports what
 * that run does in its caller's stream, as events of a nested run named `name` (at the caller's path
 * and `name`, wrapped as `toolStream`). `undefined` when nobody sees them: report nothing then. The
 * function returns a promise when the reader must take the event first (await it, or ignore it).
 */
export function nestedReporter(
  context: { readonly toolUse: ToolUse },
  name: string,
): ((event: AgentEventData) => Promise<void> | undefined) | undefined {
  const stream = byContext.get(context);
  if (!stream) return undefined;
  const path = `${stream.path}/${name}`;
  const depth = depthOf(path);
  const { toolUse } = context;
  return (data) => {
    const event = placeEvent(data, path, depth) as AgentStreamEvent;
    return stream.forward({ type: 'toolStream', toolUse, event, path, depth });
  };
}
