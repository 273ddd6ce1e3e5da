import {
  answerPrompt,
  CancelledError,
  pauseTransition,
  type Agent,
  type BudgetExceeded,
  type HookRegistry,
  type Interrupt,
  type InvocationGuardrails,
  type InvocationState,
  type JournalStep,
  type JsonObject,
  type Principal,
  guardrailsForNode,
  type MemoryTarget,
  type Message,
  type MultiAgentBase,
  type MultiAgentEventData,
  type MultiAgentStreamEvent,
  placing,
  depthOf,
  withinDepth,
  type NewTransition,
  type NodeResult,
  type NodeTransition,
  type OrchestratorBudget,
  type RunJournal,
  type Status,
} from '@skein/core';
import { setMaxListeners } from 'node:events';
import { admit, type Admission } from './admit.js';
import { agentOf, inFlightOf, resetToBuilt, stepDocument } from './agent-snapshot.js';
import { followEdges, markCancelled, markPaused, markSettled, publishTransitions } from './node-ends.js';
import type { GraphConfig, GraphEdge, GraphNode, GraphResult, GraphState } from './graph-types.js';
import { graphResult } from './graph-result.js';
import { afterNode, beforeNode } from './node-hooks.js';
import { buildNodeInput } from './node-input.js';
import { decideOutcome } from './outcome.js';
import { runNode } from './run-node.js';
import { graphShape } from './run-start.js';
import { nodeEntry, type PauseStage, type RunState } from './run-state.js';
import { RunLimits } from './run-limits.js';
import { nodeQueue, type NodeQueue } from './node-queue.js';
import { outgoingEdges, type Activation } from './schedule.js';

/** What a run needs from its graph. */
export interface RunHost {
  config: GraphConfig;
  graph: MultiAgentBase;
  hooks: HookRegistry;
  /** Where the run's steps go (with the graph's session, or numbering transitions only). */
  journal: RunJournal;
  /** Build-time messages and state of each agent node (for `resetOnRevisit`). */
  initial: ReadonlyMap<string, { messages: Message[]; state: JsonObject; conversation: JsonObject }>;
  /** The run's budget (`undefined`: none). */
  budget?: OrchestratorBudget | undefined;
  /** The guardrails an enclosing run handed this one (and its path), and who asked. */
  guardrails?: InvocationGuardrails | undefined;
  principal?: Principal | undefined;
  /** Whose memory the nodes read (`undefined`: none). */
  memory?: MemoryTarget | undefined;
  /** How deep nested runs' events reach the stream (`MultiAgentInvokeOptions.depth`). */
  depth?: number | undefined;
}

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
    if ('pause' in before) return this.#pause(activation, 'before', before.pause, undefined);
    if ('cancel' in before) return this.#cancelled(activation, count, before.cancel);
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
    return this.#ended(activation, agent, result);
  }

  /** A node a BeforeNodeCallEvent hook cancelled: failed, and not counted as an execution. */
  #cancelled(activation: Activation, count: number, reason: string): Promise<void> {
    return this.#settle(activation, markCancelled(this.#state, activation.nodeId, count, reason), false);
  }

  /** After a node's execution: a stop keeps it running to go on later, a pause waits, anything else settles. */
  #ended(activation: Activation, agent: Agent | undefined, result: NodeResult): Promise<void> {
    const { nodeId } = activation;
    if (this.#stop?.status === 'interrupted') return this.#stopped(activation, agent, undefined);
    if (result.status === 'interrupted' && result.interrupts)
      return this.#pause(activation, 'node', result.interrupts, result);
    if (result.status === 'budgetExceeded') {
      this.#budgetStop ??= result.budgetExceeded;
      if (result.budgetExceeded) this.#host.budget?.nodeStopped(result.result);
      return this.#stopped(activation, agent, result);
    }
    delete this.#state.running[nodeId];
    delete this.#state.answers[nodeId];
    return this.#settle(activation, result, true);
  }

  /**
   * A node stopped at a safe point (its budget, a cancellation) stays in `running`, and what its agent
   * did so far is committed with where it stood: a resume continues the agent from there (its finished
   * tool calls are not run again, a turn stopped between its tool uses runs only the rest).
   */
  async #stopped(activation: Activation, agent: Agent | undefined, result: NodeResult | undefined): Promise<void> {
    const { nodeId } = activation;
    this.#state.running[nodeId] = inFlightOf(activation, agent, this.#host.journal, true);
    if (result) this.#state.results[nodeId] = result;
    await this.#commit({ agent });
    if (result) this.#emit?.({ type: 'nodeStop', nodeId, result });
  }

  /**
   * A node waits for a person: it leaves `running` for `paused` (its execution completes when it is
   * resumed, so it is not counted twice), nothing new starts, and the pause is stored with an
   * `interrupt` transition before the run ends as `interrupted`.
   */
  async #pause(
    activation: Activation,
    stage: PauseStage,
    interrupts: Interrupt[],
    result: NodeResult | undefined,
  ): Promise<void> {
    const { nodeId } = activation;
    markPaused(this.#state, activation, stage, interrupts, result);
    this.#pausing = true;
    const stored = await this.#commit({
      transitions: [pauseTransition(nodeId, stage, interrupts)],
      agent: agentOf(this.#host.config, nodeId),
    });
    if (result) this.#emit?.({ type: 'nodeStop', nodeId, result });
    publishTransitions(this.#state, stored, this.#emit);
    if (result) await afterNode(this.#host.hooks, this.#host.graph, nodeId, result, this.#invocationState);
  }

  /** Records a finished (or cancelled) node, follows its edges, persists, then starts what became ready. */
  async #settle(activation: Activation, result: NodeResult, ran: boolean): Promise<void> {
    const state = this.#state;
    const { nodeId } = activation;
    const { config, hooks, graph } = this.#host;
    markSettled(state, nodeId, result, ran);
    const outgoing = this.#outgoing.get(nodeId) ?? [];
    const stopped = this.#stop !== undefined;
    const following = followEdges(state, nodeId, result, outgoing, config, stopped, () => this.graphState());
    const followed = following instanceof Promise ? await following : following;
    const { fired, transitions } = followed;
    if (followed.halt) this.halt('failed', followed.halt);
    // The node entry is a JSON copy of the result: made only when a session stores it.
    const node = this.#host.journal.persistent
      ? { id: nodeId, entry: nodeEntry(result, state.places[nodeId] ?? []) }
      : undefined;
    const stored = await this.#commit({
      node,
      transitions,
      agent: agentOf(config, nodeId),
    });
    this.#emit?.({ type: 'nodeStop', nodeId, result });
    publishTransitions(state, stored, this.#emit);
    const after = afterNode(hooks, graph, nodeId, result, this.#invocationState);
    if (after) await after;
    for (const f of fired) this.#schedule(f.edge.to);
    if (state.waiting.some((a) => a.nodeId === nodeId)) this.#schedule(nodeId);
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

  /** Hands one step to the journal; its state document is taken now (made only when a session stores it). */
  #commit(step: Omit<JournalStep, 'state'>): Promise<NodeTransition[]> {
    const { journal, config, budget } = this.#host;
    const state = (): JsonObject => stepDocument(this.#state, config, journal, this.elapsedMs(), budget);
    return journal.commit({ ...step, state });
  }

  /** Time spent on this run, earlier processes included. */
  elapsedMs(): number {
    return this.#state.elapsedBeforeMs + (performance.now() - this.#started);
  }
}
