/**
 * Which of a run's events become MCP progress notifications, and how they read: tool calls and their
 * results, node starts and stops, handoffs and other transitions, interrupts, model retries, guardrail
 * trips and the start of a turn resumed from the store (its process had died). Each names where it happened (its run-tree path, as an interrupt's `source`).
 * Text deltas and stored messages are not sent (the answer comes in the result). A pure mapping.
 */
import type { ServerEvent } from '@skein/server';

/** A progress line and the event it came from (sent in the notification's `_meta`). */
export interface ProgressLine {
  message: string;
  event: ServerEvent;
}

/** The path of an event, joined by `/` (empty for the target itself). */
function where(event: ServerEvent): string {
  return 'path' in event && event.path.length > 0 ? `${event.path.join('/')}: ` : '';
}

/** The progress line of `event`, or `undefined` for events not sent as progress. */
export function progressLine(event: ServerEvent): ProgressLine | undefined {
  const message = describe(event);
  return message === undefined ? undefined : { message: `${where(event)}${message}`, event };
}

function describe(event: ServerEvent): string | undefined {
  switch (event.type) {
    case 'toolStart':
      return `tool ${event.toolUse.name} started`;
    case 'toolResult':
      return `tool result (${event.toolResult.status})`;
    case 'nodeStart':
      return `${event.nodeId} started`;
    case 'nodeStop':
      return `${event.nodeId} ${event.status}`;
    case 'transition':
      return `${event.transition.kind} ${event.transition.from ?? 'start'} -> ${event.transition.to ?? 'end'}`;
    case 'interrupt':
      return `waits for ${event.interrupts.map((i) => i.name).join(', ')}`;
    case 'modelRetry':
      return `model call retried (attempt ${event.attempt}): ${event.error}`;
    case 'guardrailTripped':
      return `guardrail ${event.trip.guardrail} blocked the turn`;
    case 'turnStart':
      return event.resumed ? `turn ${event.turn} resumed from the store` : undefined;
    default:
      return undefined;
  }
}
