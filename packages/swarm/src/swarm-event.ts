import {
  depthOf,
  placeEvent,
  type Emit,
  type Listeners,
  type MultiAgentEventData,
  type MultiAgentStreamEvent,
  type NodeTransition,
} from '@skein/core';
import { detailsOf, type HandoffDetails } from './handoff-details.js';

/** The `handoff` event listeners get once per transfer: who handed over to whom, and what the receiver got. */
export interface SwarmHandoffEvent {
  type: 'handoff';
  from: string;
  to: string;
  /** The transition record (its `details` are `details` below). */
  transition: NodeTransition;
  /** The message, the shared-context keys and the history sizes before and after the input filter. */
  details: HandoffDetails;
}

/** Hands a run's event to whoever watches: a promise when the stream's reader must take it first (await it then). */
export type SwarmEmit = (event: MultiAgentEventData) => Promise<void> | undefined;

/** What swarm listeners receive: the stream's events, and `handoff` for each transfer. */
export type SwarmEvent = MultiAgentStreamEvent | SwarmHandoffEvent;

/** The `handoff` event a stream event announces (a `handoff` transition), else `undefined`. */
function handoffEventOf(event: MultiAgentStreamEvent): SwarmHandoffEvent | undefined {
  if (event.type !== 'transition') return undefined;
  const t = event.transition;
  if (t.kind !== 'handoff' || !t.from || !t.to) return undefined;
  const details = detailsOf(t.details) ?? {
    sharedContextKeys: {},
    historyBefore: 0,
    historyAfter: 0,
  };
  return { type: 'handoff', from: t.from, to: t.to, transition: t, details };
}

/** The `emit` of a run nobody watches: no listener, no reader. */
export const NOBODY: SwarmEmit = () => undefined;

/**
 * The run's `emit`: stamps each event with the run's place (`path`: '' for the outermost swarm), then
 * hands it to the listeners (with a `handoff` event after each handoff transition), then the reader.
 */
export function emitter(
  listeners: Listeners<SwarmEvent> | undefined,
  reader: Emit<MultiAgentStreamEvent> | undefined,
  path: string,
): SwarmEmit {
  const depth = depthOf(path);
  if (!listeners) return (data) => reader?.(placeEvent(data, path, depth));
  return (data) => {
    const event = placeEvent(data, path, depth);
    listeners.emit(event);
    const handoff = handoffEventOf(event);
    if (handoff) listeners.emit(handoff);
    return reader?.(event);
  };
}
