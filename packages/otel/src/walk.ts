import {
  isAgent,
  isMultiAgent,
  isRunnable,
  type HookRegistry,
  type MultiAgentBase,
  type NodeTransition,
  type Runnable,
} from '@skein/core';

/** What instrumentation needs of an orchestrator: hooks and transition listeners (Graph and Swarm have both). */
export interface Orchestrator extends MultiAgentBase {
  readonly hooks: HookRegistry;
  on(type: 'transition', listener: (event: { type: 'transition'; transition: NodeTransition }) => void): unknown;
  off(type: 'transition', listener: (event: { type: 'transition'; transition: NodeTransition }) => void): unknown;
}

/** True for an orchestrator with `hooks` and `on`/`off` (a Graph, a Swarm). */
export function isOrchestrator(value: unknown): value is Orchestrator {
  if (!isMultiAgent(value)) return false;
  const o = value as unknown as Record<string, unknown>;
  const hooks = o['hooks'] as { addCallback?: unknown } | undefined;
  return typeof hooks?.addCallback === 'function' && typeof o['on'] === 'function' && typeof o['off'] === 'function';
}

/**
 * What each node id of an orchestrator runs: a Graph's `nodes` (a map of `{ id, target }`), a
 * Swarm's `nodeIds` with its `nodes` (member agents, in the same order).
 */
export function nodeTargets(o: MultiAgentBase): Map<string, Runnable> {
  const out = new Map<string, Runnable>();
  const nodes = (o as { nodes?: unknown }).nodes;
  if (nodes instanceof Map) {
    for (const [id, node] of nodes as Map<string, { target?: unknown }>) {
      if (isRunnable(node.target)) out.set(id, node.target);
    }
  } else if (Array.isArray(nodes)) {
    const ids = (o as { nodeIds?: unknown }).nodeIds;
    nodes.forEach((node: unknown, i) => {
      const id = Array.isArray(ids) && typeof ids[i] === 'string' ? ids[i] : isAgent(node) ? node.name : undefined;
      if (id !== undefined && isRunnable(node)) out.set(id, node);
    });
  }
  return out;
}

/** The agents and orchestrators a target runs: node targets, agents behind `asTool()` tools, handoff targets. */
export function children(target: Runnable): Runnable[] {
  if (!isAgent(target)) return [...nodeTargets(target).values()];
  const out: Runnable[] = [];
  for (const tool of target.tools) if (isAgent(tool.agent)) out.push(tool.agent);
  for (const handoff of target.handoffs) if (isAgent(handoff.agent)) out.push(handoff.agent);
  return out;
}

type Invoke = MultiAgentBase['invoke'];
type Stream = MultiAgentBase['stream'];

/**
 * Calls `onError` when a run of `o` throws (hooks say nothing then: there is no
 * AfterMultiAgentInvocationEvent), by wrapping its `invoke` and `stream` on the instance. A call
 * that throws because another run is in progress (`busy()` when it started) is not that run's end.
 * Returns a function that restores the methods.
 */
export function guardErrors(o: MultiAgentBase, busy: () => boolean, onError: (error: unknown) => void): () => void {
  const invoke: Invoke = o.invoke;
  const stream: Stream = o.stream;
  const guardedInvoke: Invoke = (task, options) => {
    const wasBusy = busy();
    return invoke.call(o, task, options).catch((error: unknown) => {
      if (!wasBusy) onError(error);
      throw error;
    });
  };
  const guardedStream: Stream = async function* (task, options) {
    const wasBusy = busy();
    try {
      return yield* stream.call(o, task, options);
    } catch (error) {
      if (!wasBusy) onError(error);
      throw error;
    }
  };
  Object.defineProperty(o, 'invoke', { value: guardedInvoke, configurable: true, writable: true });
  Object.defineProperty(o, 'stream', { value: guardedStream, configurable: true, writable: true });
  return () => {
    if (o.invoke === guardedInvoke) delete (o as { invoke?: Invoke }).invoke;
    if (o.stream === guardedStream) delete (o as { stream?: Stream }).stream;
  };
}
