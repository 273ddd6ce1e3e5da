import type { MultiAgentEventData, MultiAgentStreamEvent, NodeTransition } from '@skein/core';
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
export function handoffEventOf(event: MultiAgentStreamEvent): SwarmHandoffEvent | undefined {
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
