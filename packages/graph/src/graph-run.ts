import {
  answerPrompt,
  CancelledError,
  type BudgetExceeded,
  type InvocationState,
  type JournalStep,
  type MultiAgentEventData,
  type MultiAgentStreamEvent,
  type NewTransition,
  type NodeTransition,
  type Status,
  guardrailsForNode,
  placing,
  depthOf,
  withinDepth,
} from '@skein/core';
import { setMaxListeners } from 'node:events';
import { admit, type Admission } from './admit.js';
import { resetToBuilt } from './reset-to-built.js';
import { cancelledNode, endedNode, pausedNode, type NodeEnding } from './ended-node.js';
import { commitStep, inFlightOf } from './graph-step.js';
import type { GraphEdge, GraphNode, GraphResult, GraphState } from './graph-types.js';
import { graphResult } from './graph-result.js';
import { publishTransitions } from './node-ends.js';
import { beforeNode } from './node-hooks.js';
import { buildNodeInput } from './node-input.js';
import { decideOutcome } from './outcome.js';
import { runNode } from './run-node.js';
import type { RunHost } from './run-host.js';
import { graphShape } from './run-start.js';
import type { RunState } from './run-state.js';
import { RunLimits } from './run-limits.js';
import { nodeQueue, type NodeQueue } from './node-queue.js';
import { outgoingEdges } from './schedule.js';

/**
 * One run of a graph: a thin loop around the scheduling functions. Ready nodes go to a FIFO queue as
 * soon as they are ready (bounded by `maxConcurrency`, FIFO so ties keep insertion order); a node
 * that finishes follows its edges, persists, and enqueues what it made ready. Limits, timeouts and
 * failures stop the run with a status and a reason; only session write errors are thrown.
 */
export class GraphRun {
  readonly #host: RunHost;
  readonly #state: RunState;
  readonly #queue: NodeQueue;
  readonly #queued = new Set<string>();
  readonly #outgoing: Map<string, GraphEdge[]>;
  readonly #controller = new AbortController();
  readonly #invocationState: InvocationState;
  readonly #emit: ((event: MultiAgentEventData) => void) | undefined;
  readonly #started = performance.now();
  readonly #admission: Admission;
  readonly #ending: NodeEnding;
  #stop: { status: Status; reason: string } | undefined;
  #fatal: { error: unknown } | undefined;
  /** A node waits for a person: nothing new starts; running nodes finish. */
  #pausing = false;
  /** A budget limit was reached: nothing new starts; running nodes stop at their next safe point. */
  #budgetStop: BudgetExceeded | undefined;

  constructor(
    host: RunHost,
    state: RunState,
    invocationState: InvocationState,
    emit: ((event: MultiAgentStreamEvent) => void) | undefined,
  ) {
    this.#host = host;
    this.#state = state;
    this.#invocationState = invocationState;
    // The run's own events at its place: '' for the outermost graph, the node path in an enclosing run.
    this.#emit = placing<MultiAgentEventData, void>(emit, host.guardrails?.path ?? '');
    this.#queue = nodeQueue(host.config.maxConcurrency);
    this.#outgoing = outgoingEdges([...host.config.nodes.keys()], host.config.edges);
    host.journal.numberFrom(state.transitions.length);
    setMaxListeners(0, this.#controller.signal); // one listener per running node
    // A run resumed with nodes still paused (no answers yet) starts nothing new.
    this.#pausing = Object.keys(state.paused).length > 0;
    this.#admission = {
      state,
      host,
      emit: this.#emit,
      halting: () => this.#stop !== undefined || this.#pausing,
      budgetStop: () => this.#budgetStop,
      refuse: (exceeded) => void (this.#budgetStop ??= exceeded),
      halt: (status, reason) => this.halt(status, reason),
    };
    this.#ending = {
      state,
      host,
      emit: this.#emit,
      invocationState,
      outgoing: this.#outgoing,
      stopped: () => this.#stop,
      pausing: () => void (this.#pausing = true),
      budgetStopped: (exceeded) => void (this.#budgetStop ??= exceeded),
      halt: (status, reason) => this.halt(status, reason),
      schedule: (nodeId) => this.#schedule(nodeId),
      elapsedMs: () => this.elapsedMs(),
      graphState: () => this.graphState(),
    };
  }

  /** Stops the run: running nodes are aborted, nothing new starts. The first reason wins. */
  halt(status: Status, reason: string): void {
    if (this.#stop) return;
    this.#stop = { status, reason };
    this.#controller.abort(new CancelledError(reason));
    this.#queue.clear();
    this.#queued.clear();
  }

  /** Runs to the end; `start` are the transitions that open it (a fresh start or a resume). */
  async execute(start: NewTransition[], signal: AbortSignal | undefined): Promise<GraphResult> {
    const { executionTimeoutMs } = this.#host.config;
    const halt = (status: Status, reason: string): void => this.halt(status, reason);
    const limits = new RunLimits(signal, executionTimeoutMs, this.#state.elapsedBeforeMs, halt);
    try {
      this.#host.journal.stageRun(() => ({
        shape: graphShape(this.#host.config),
      }));
      await this.#guard(async () =>
        publishTransitions(this.#state, await this.#commit({ transitions: start }), this.#emit),
      );
      for (const a of this.#state.waiting) this.#schedule(a.nodeId);
      await this.#queue.onIdle();
      return await this.#finish();
    } finally {
      limits.clear();
    }
  }

  #schedule(nodeId: string): void {
    if (this.#stop || this.#pausing || this.#budgetStop || this.#queued.has(nodeId) || this.#state.running[nodeId])
      return;
    this.#queued.add(nodeId);
    this.#queue.add(() => this.#guard(() => this.#execute(nodeId)));
  }

  async #guard(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.#fatal ??= { error };
      this.halt('failed', `The graph stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async #execute(nodeId: string): Promise<void> {
    this.#queued.delete(nodeId);
    const admitted = admit(this.#admission, nodeId);
    const started = admitted instanceof Promise ? await admitted : admitted;
    if (!started) return;
    const { activation, budget, continues, count, agent } = started;
    const { config, hooks, graph } = this.#host;
    const state = this.#state;
    const answers = state.answers[nodeId];
    const asked = beforeNode(hooks, graph, nodeId, answers, this.#invocationState);
    const before = asked instanceof Promise ? await asked : asked;
    if ('pause' in before) return pausedNode(this.#ending, activation, 'before', before.pause, undefined);
    if ('cancel' in before) return cancelledNode(this.#ending, activation, count, before.cancel);
    // Nothing is written when a node starts: the last state document has it waiting (or running), with
    // where its agent stood. A reset agent is the exception: its new start point is written first.
    if (count > 1 && config.resetOnRevisit && agent) {
      await resetToBuilt(agent, this.#host.initial.get(nodeId), this.#host.journal);
      state.running[nodeId] = {
        ...inFlightOf(activation, agent, this.#host.journal),
        interruptState: undefined,
      };
      await this.#commit({});
    }
    this.#emit?.({ type: 'nodeStart', nodeId });
    const input = answerPrompt(answers?.node) ?? buildNodeInput(state.task, activation.sources, state.results);
    const guardrails = guardrailsForNode(config.guardrails, this.#host.guardrails, nodeId);
    const depth = this.#host.depth;
    const result = await runNode({
      node: config.nodes.get(nodeId) as GraphNode,
      input: continues && agent ? undefined : input,
      idempotencyScope: `${this.#host.journal.sessionId ?? ''}/${graph.id}/${state.runId}/${nodeId}#${count}`,
      runSignal: this.#controller.signal,
      timeoutMs: config.nodeTimeoutMs,
      invocationState: this.#invocationState,
      executionCount: count,
      // A node deeper than the stream reaches runs through invoke(): it makes no events.
      onEvent: withinDepth(depthOf(guardrails.path ?? nodeId), depth) ? this.#emit : undefined,
      depth,
      budget,
      guardrails,
      principal: this.#host.principal,
      memory: this.#host.memory,
    });
    return endedNode(this.#ending, activation, agent, result);
  }

  /** What edge conditions see. */
  graphState(): GraphState {
    const s = this.#state;
    return {
      task: s.task,
      results: s.results,
      executionOrder: s.executionOrder,
      executionCount: s.executionCount,
    };
  }

  async #finish(): Promise<GraphResult> {
    const state = this.#state;
    const stops = {
      stop: this.#stop,
      pausing: this.#pausing,
      budgetStop: this.#budgetStop,
    };
    const { status, reason, waitsFor, end } = decideOutcome(state, this.#host.config.edges, stops);
    state.status = status;
    state.failureReason = reason;
    if (!this.#fatal) {
      const transitions = end ? [end] : [];
      await this.#guard(async () => publishTransitions(state, await this.#commit({ transitions }), this.#emit));
    }
    if (!this.#fatal && this.#host.journal.persistent) await this.#guard(() => this.#host.journal.settle());
    if (this.#fatal) throw this.#fatal.error;
    const { nodes } = this.#host.config;
    const result = graphResult(state, status, reason, nodes.size, this.elapsedMs(), waitsFor);
    if (this.#host.budget) Object.assign(result, this.#host.budget.report());
    if (status === 'budgetExceeded' && this.#budgetStop) result.budgetExceeded = this.#budgetStop;
    return result;
  }

  /** Hands one step to the journal (see `commitStep`). */
  #commit(step: Omit<JournalStep, 'state'>): Promise<NodeTransition[]> {
    return commitStep(this.#ending, step);
  }

  /** Time spent on this run, earlier processes included. */
  elapsedMs(): number {
    return this.#state.elapsedBeforeMs + (performance.now() - this.#started);
  }
}
