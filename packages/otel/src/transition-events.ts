import type { Attributes } from '@opentelemetry/api';
import type { JsonObject, NodeTransition } from '@skein/core';
import { ATTR, EVENT } from './conventions.js';

/** The span event of each transition kind that has its own; every other kind is a plain transition. */
const EVENT_OF_KIND: ReadonlyMap<string, string> = new Map([
  ['handoff', EVENT.handoff],
  ['interrupt', EVENT.interrupt],
  ['resume', EVENT.resume],
]);

/** What the receiver of a handoff got (the transition's `details`: counts and keys, never contents) as event attributes. */
function addHandoffDetails(attributes: Attributes, details: JsonObject): void {
  const { historyBefore, historyAfter, sharedContextKeys, alsoRan, refused } = details;
  if (typeof historyBefore === 'number') attributes[ATTR.handoffHistoryBefore] = historyBefore;
  if (typeof historyAfter === 'number') attributes[ATTR.handoffHistoryAfter] = historyAfter;
  if (typeof sharedContextKeys === 'object' && sharedContextKeys !== null && !Array.isArray(sharedContextKeys)) {
    attributes[ATTR.handoffSharedContextKeys] = Object.entries(sharedContextKeys).flatMap(([node, keys]) =>
      Array.isArray(keys) ? keys.map((k) => `${node}.${String(k)}`) : [],
    );
  }
  if (Array.isArray(alsoRan)) attributes[ATTR.handoffAlsoRan] = alsoRan.map(String);
  if (Array.isArray(refused)) attributes[ATTR.handoffRefused] = refused.map(String);
}

/** A transition as a span event of its run: the event's name and attributes (a handoff's details included). */
export function transitionEvent(tr: NodeTransition): { name: string; attributes: Attributes } {
  const attributes: Attributes = {
    [ATTR.transitionSeq]: tr.seq,
    [ATTR.transitionKind]: tr.kind,
    [ATTR.transitionReason]: tr.reason,
  };
  if (tr.from !== null) attributes[ATTR.transitionFrom] = tr.from;
  if (tr.to !== null) attributes[ATTR.transitionTo] = tr.to;
  if (tr.kind === 'handoff' && tr.details) addHandoffDetails(attributes, tr.details);
  return { name: EVENT_OF_KIND.get(tr.kind) ?? EVENT.transition, attributes };
}
