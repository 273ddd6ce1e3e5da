import {
  AfterNodeCallEvent,
  BeforeNodeCallEvent,
  beforeNodeAsk,
  InterruptRaised,
  type HookRegistry,
  type Interrupt,
  type InvocationState,
  type MultiAgentBase,
  type NodeResult,
} from '@skein/core';
import type { Answers } from './run-state.js';

/** What the BeforeNodeCallEvent hooks decided: run the node, cancel it (with why), or wait for a person. */
export type BeforeNode = { run: true } | { cancel: string } | { pause: Interrupt[] };

const RUN: BeforeNode = { run: true };

/**
 * Fires BeforeNodeCallEvent for a node about to run. Without a callback the event would come back
 * unchanged, so it is not built, and the answer comes at once (a promise only when a hook runs).
 */
export function beforeNode(
  hooks: HookRegistry,
  graph: MultiAgentBase,
  nodeId: string,
  answers: Answers | undefined,
  invocationState: InvocationState,
): BeforeNode | Promise<BeforeNode> {
  if (!hooks.has(BeforeNodeCallEvent)) return RUN;
  return askHooks(hooks, graph, nodeId, answers, invocationState);
}

async function askHooks(
  hooks: HookRegistry,
  graph: MultiAgentBase,
  nodeId: string,
  answers: Answers | undefined,
  invocationState: InvocationState,
): Promise<BeforeNode> {
  let cancelNode: boolean | string;
  try {
    const interrupt = beforeNodeAsk(graph.id, nodeId, answers?.before);
    cancelNode = (await hooks.invoke(new BeforeNodeCallEvent(graph, { nodeId, invocationState, interrupt })))
      .cancelNode;
  } catch (error) {
    if (!(error instanceof InterruptRaised)) throw error;
    return { pause: error.interrupts };
  }
  if (cancelNode === false) return RUN;
  return {
    cancel: typeof cancelNode === 'string' ? cancelNode : `Node ${nodeId} was cancelled by a BeforeNodeCallEvent hook.`,
  };
}

/** Fires AfterNodeCallEvent when a callback listens: a promise then (await it), else `undefined`. */
export function afterNode(
  hooks: HookRegistry,
  graph: MultiAgentBase,
  nodeId: string,
  result: NodeResult,
  invocationState: InvocationState,
): Promise<unknown> | undefined {
  if (!hooks.has(AfterNodeCallEvent)) return undefined;
  return hooks.invoke(new AfterNodeCallEvent(graph, { nodeId, invocationState, result }));
}
