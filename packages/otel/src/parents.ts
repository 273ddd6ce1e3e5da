import type { Context } from '@opentelemetry/api';

/** Where the next run of an agent or orchestrator belongs: the span that runs it, and the conversation. */
export interface Parent {
  readonly ctx: Context;
  readonly conversationId: string | undefined;
}

// An agent or orchestrator runs one invocation at a time (a second one throws ConcurrencyError), so
// "the span that is about to run it" is one value per object. The node span of a graph or swarm, or
// the execute_tool span of an agent-as-tool, registers itself here before the run starts; parallel
// branches each register their own target, so no ambient context has to survive the scheduler.
const parents = new WeakMap<object, Parent>();

/** Registers `parent` as the span the next run of `target` belongs to. */
export function setParent(target: object, parent: Parent): void {
  parents.set(target, parent);
}

/** The registered parent of `target`, if any. */
export function parentOf(target: object): Parent | undefined {
  return parents.get(target);
}

/** Forgets the parent of `target` when it is still `parent`. */
export function clearParent(target: object, parent: Parent): void {
  if (parents.get(target) === parent) parents.delete(target);
}
