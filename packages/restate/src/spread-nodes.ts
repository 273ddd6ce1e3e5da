/**
 * Graph nodes as Restate calls, so the parallel branches of a run may run on different workers.
 * In a workflow run, agent nodes of a Graph (nested graphs too) are swapped for a stub whose
 * `stream` sends the agent's starting point (prompt, messages, state, a pending turn) to the
 * workflow's shared `node` handler as one journaled call; Restate dispatches each call as its own
 * invocation, to any worker of the deployment (behind a load balancer, a different one per call).
 * The handler builds the same tree, runs the agent with its model and tool calls journaled in the
 * node's invocation, and answers the agent's new messages, state and result, which the stub puts
 * back on the local agent before the graph goes on. A node that crashed is retried by Restate on
 * its own, replaying its finished steps; the run's journal holds the call, so a replayed run waits
 * for (or reads) the same answer instead of running the node again.
 *
 * Which nodes: `parallel` (the default) spreads the nodes that can run alongside another one (the
 * targets of a node with several outgoing edges, and the entry points when there are several),
 * decided from the graph's shape alone so every replay decides the same; a chain's nodes stay in
 * the run's worker, where a node costs a third of a call (see bench/src/restate.bench.ts). `all`
 * spreads every agent node, `none` none.
 *
 * Swarm members, nested Swarms and agents used as tools stay in the process that runs their parent:
 * a Swarm runs one agent at a time, so spreading it gains nothing.
 */
import {
  AgentMetrics,
  AgentResult,
  addUsage,
  interruptStateOf,
  isAgent,
  isMultiAgent,
  restoreInterruptState,
  type Agent,
  type AgentStreamEvent,
  type InvokeOptions,
  type MultiAgentBase,
  type Prompt,
  type Runnable,
} from '@skein/core';
import { activeJournal, awaitInScope, runInScope, type NodeReply, type NodeRequest } from './durable-scope.js';
import type { Context } from '@restatedev/restate-sdk';

const spread = new WeakSet<object>();

/** A Graph's node targets by id (a Swarm or anything else: none). */
function graphNodes(target: MultiAgentBase): Map<string, unknown> | undefined {
  const nodes = (target as { nodes?: unknown }).nodes;
  if (!(nodes instanceof Map)) return undefined;
  return new Map([...nodes.entries()].map(([id, node]: [string, { target: unknown }]) => [id, node.target]));
}

/** Which agent nodes of a graph run as Restate calls. */
export type SpreadMode = 'parallel' | 'all' | 'none';

/** The nodes that can run alongside another: targets of a fan-out, and several entry points. */
function parallelNodes(graph: MultiAgentBase): Set<string> {
  const { edges = [], entryPoints = [] } = graph as {
    edges?: readonly { from: readonly string[]; to: string }[];
    entryPoints?: readonly string[];
  };
  const targets = new Map<string, Set<string>>();
  for (const edge of edges)
    for (const from of edge.from) targets.set(from, (targets.get(from) ?? new Set()).add(edge.to));
  const parallel = new Set(entryPoints.length > 1 ? entryPoints : []);
  for (const to of targets.values()) if (to.size > 1) for (const id of to) parallel.add(id);
  return parallel;
}

/** Makes agent nodes of `root`'s graphs run as Restate calls when their run has a node caller (idempotent). */
export function spreadNodes(root: Runnable, mode: SpreadMode, path: string[] = []): void {
  if (mode === 'none' || isAgent(root) || spread.has(root)) return;
  spread.add(root);
  const parallel = mode === 'all' ? undefined : parallelNodes(root);
  for (const [id, target] of graphNodes(root) ?? []) {
    if (isAgent(target) && (!parallel || parallel.has(id))) stubAgent(target, [...path, id]);
    else if (isMultiAgent(target)) spreadNodes(target, mode, [...path, id]);
  }
}

/**
 * Replaces the agent's `invoke` and `stream` (a graph runs a node through `invoke` when nobody reads
 * its events, else through `stream`): inside a run with a node caller, both call the node remotely.
 */
function stubAgent(agent: Agent, path: string[]): void {
  const plainStream = agent.stream.bind(agent);
  const plainInvoke = agent.invoke.bind(agent);
  agent.stream = (prompt?: Prompt, options?: InvokeOptions): AsyncGenerator<AgentStreamEvent, AgentResult> => {
    const scope = activeJournal();
    return scope?.callNode ? remoteStream(agent, path, prompt ?? [], scope) : plainStream(prompt, options);
  };
  agent.invoke = (prompt?: Prompt, options?: InvokeOptions): Promise<AgentResult> => {
    const scope = activeJournal();
    return scope?.callNode ? remote(agent, path, prompt ?? [], scope) : plainInvoke(prompt, options);
  };
}

type Scope = NonNullable<ReturnType<typeof activeJournal>>;

/** The stub's stream: no events (the node's own stay in the worker that ran it), then the result. */
async function* remoteStream(
  agent: Agent,
  path: string[],
  prompt: Prompt,
  scope: Scope,
): AsyncGenerator<AgentStreamEvent, AgentResult> {
  return await remote(agent, path, prompt, scope);
}

/** Runs the node as a Restate call and takes its messages, state and waiting turn back into `agent`. */
async function remote(agent: Agent, path: string[], prompt: Prompt, scope: Scope): Promise<AgentResult> {
  const interruptState = interruptStateOf(agent);
  const request: NodeRequest = {
    path,
    prompt,
    messages: agent.messages,
    state: agent.state.get(),
    ...(interruptState ? { interruptState } : {}),
  };
  const reply = await awaitInScope(scope, (scope.callNode as NonNullable<typeof scope.callNode>)(request));
  agent.messages = reply.messages;
  agent.state.replace(reply.state);
  restoreInterruptState(agent, reply.interruptState);
  return resultOf(reply);
}

function resultOf(reply: NodeReply): AgentResult {
  const { metrics: m, ...rest } = reply.result;
  const metrics = new AgentMetrics();
  Object.assign(metrics, {
    cycleCount: m.cycleCount,
    modelCallCount: m.modelCallCount,
    modelLatencyMs: m.modelLatencyMs,
    durationMs: m.durationMs,
    interruptCount: m.interruptCount,
  });
  addUsage(metrics.usage, m.usage);
  Object.assign(metrics.toolMetrics, m.toolMetrics);
  return new AgentResult({
    stopReason: rest.stopReason,
    message: rest.message,
    metrics,
    state: {},
    interrupts: rest.interrupts,
  });
}

/** The agent at `path` in a freshly built tree; throws when the tree has no agent there. */
function agentAt(root: Runnable, path: readonly string[]): Agent {
  let at: unknown = root;
  for (const id of path) at = isMultiAgent(at) ? graphNodes(at)?.get(id) : undefined;
  if (!isAgent(at))
    throw new TypeError(`No agent node at ${path.join('/')}: build() must return the same graph on every worker.`);
  return at;
}

/** Runs one node agent of a freshly built tree as the `node` handler asked, journaled in `ctx`. */
export async function runNodeHere(ctx: Context, root: Runnable, request: NodeRequest): Promise<NodeReply> {
  const agent = agentAt(root, request.path);
  agent.messages = request.messages;
  agent.state.replace(request.state);
  restoreInterruptState(agent, request.interruptState);
  const result = await runInScope(ctx, () => agent.invoke(request.prompt));
  const interruptState = interruptStateOf(agent);
  const m = result.metrics;
  return {
    messages: agent.messages,
    state: agent.state.get(),
    ...(interruptState ? { interruptState } : {}),
    result: {
      stopReason: result.stopReason,
      message: result.message,
      interrupts: [...result.interrupts],
      metrics: {
        cycleCount: m.cycleCount,
        modelCallCount: m.modelCallCount,
        modelLatencyMs: m.modelLatencyMs,
        durationMs: m.durationMs,
        interruptCount: m.interruptCount,
        usage: m.usage,
        toolMetrics: m.toolMetrics,
      },
    },
  };
}
