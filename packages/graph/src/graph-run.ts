import {
  Agent,
  AfterNodeCallEvent,
  BeforeNodeCallEvent,
  CancelledError,
  InterruptRaised,
  addUsage,
  describeExceeded,
  emptyUsage,
  type BudgetExceeded,
  type BudgetScope,
  type OrchestratorBudget,
  interruptStateOf,
  nowIso,
  type HookRegistry,
  type Interrupt,
  type InvocationState,
  type JsonObject,
  type Message,
  type MultiAgentBase,
  type MultiAgentStreamEvent,
  type NewTransition,
  type NodeResult,
  type NodeTransition,
  type Status,
} from '@skein/core';
import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import type { GraphSession } from './graph-session.js';
import type { GraphConfig, GraphEdge, GraphResult, GraphState } from './graph-types.js';
import { graphResult } from './graph-result.js';
import { buildNodeInput } from './node-input.js';
import { answerPrompt, beforeNodeAsk, pauseTransition, pendingInterrupts } from './pause.js';
import { runNode } from './run-node.js';
import { nodeEntry, stateDocument, type InFlight, type PauseStage, type RunState } from './run-state.js';
import {
  addActivation,
  arriveAt,
  checkConditions,
  describeEdge,
  outgoingEdges,
  strandedJoins,
  type Activation,
  type FiredEdge,
} from './schedule.js';

/** Nodes, edges (one per source; `join` when the edge waits for several) and entry points, as JSON. */
function graphShape(config: GraphConfig): JsonObject {
  return {
    nodes: [...config.nodes.keys()],
    edges: config.edges.flatMap((e) =>
      e.from.map((from) => ({ from, to: e.to, conditional: e.condition !== undefined, join: e.join })),
    ),
    entryPoints: [...config.entryPoints],
  };
}

/** What a run needs from its graph. */
export interface RunHost {
  config: GraphConfig;
  graph: MultiAgentBase;
  hooks: HookRegistry;
  session: GraphSession | undefined;
  /** Build-time messages and state of each agent node (for `resetOnRevisit`). */
  initial: ReadonlyMap<string, { messages: Message[]; state: JsonObject; conversation: JsonObject }>;
  /** The run's budget (`undefined`: none). */
  budget?: OrchestratorBudget | undefined;
}

/**
 * One run of a graph: a thin loop around the scheduling functions. Ready nodes go to a p-queue as
 * soon as they are ready (bounded by `maxConcurrency`, FIFO so ties keep insertion order); a node
 * that finishes follows its edges, persists, and enqueues what it made ready. Limits, timeouts and
 * failures stop the run with a status and a reason; only session write errors are thrown.
 */
export class GraphRun {
  readonly #host: RunHost;
  readonly #state: RunState;
  readonly #queue: PQueue;
  readonly #queued = new Set<string>();
  readonly #outgoing: Map<string, GraphEdge[]>;
  readonly #controller = new AbortController();
  readonly #invocationState: InvocationState;
  readonly #emit: ((event: MultiAgentStreamEvent) => void) | undefined;
  readonly #started = performance.now();
  /** The graph's nodes and edges, stored with the state so tools can draw a run that has not finished (built on the first write: only a session needs it). */
  #shape: JsonObject | undefined;
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
    this.#emit = emit;
    this.#queue = new PQueue({ concurrency: host.config.maxConcurrency });
    this.#outgoing = outgoingEdges([...host.config.nodes.keys()], host.config.edges);
    setMaxListeners(0, this.#controller.signal); // one listener per running node
    // A run resumed with nodes still paused (no answers yet) starts nothing new.
    this.#pausing = Object.keys(state.paused).length > 0;
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
    const onAbort = (): void =>
      this.halt('interrupted', 'The run was cancelled; invoke the graph again with the same session to resume it.');
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const { executionTimeoutMs } = this.#host.config;
    const left =
      executionTimeoutMs === undefined ? undefined : Math.max(0, executionTimeoutMs - this.#state.elapsedBeforeMs);
    const timer =
      left === undefined
        ? undefined
        : setTimeout(
            () => this.halt('failed', `Execution timeout of ${executionTimeoutMs} ms reached (setExecutionTimeout).`),
            left,
          );
    try {
      await this.#guard(async () => this.#publish(await this.#write({ transitions: start, first: true })));
      for (const a of this.#state.waiting) this.#schedule(a.nodeId);
      await this.#queue.onIdle();
      return await this.#finish();
    } finally {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #schedule(nodeId: string): void {
    if (this.#stop || this.#pausing || this.#budgetStop || this.#queued.has(nodeId) || this.#state.running[nodeId])
      return;
    this.#queued.add(nodeId);
    void this.#queue.add(() => this.#guard(() => this.#execute(nodeId)));
  }

  async #guard(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.#fatal ??= { error };
      this.halt('failed', `The graph stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Halts the run when `setMaxNodeExecutions` leaves no room for `nodeId` (checked again after every await before the count is taken). */
  #atExecutionLimit(nodeId: string): boolean {
    const max = this.#host.config.maxNodeExecutions;
    if (max === undefined || this.#state.executionCount < max) return false;
    this.halt(
      'failed',
      `Reached the limit of ${max} node executions (setMaxNodeExecutions) before node ${nodeId} could run.`,
    );
    return true;
  }

  async #execute(nodeId: string): Promise<void> {
    this.#queued.delete(nodeId);
    const state = this.#state;
    let at = state.waiting.findIndex((a) => a.nodeId === nodeId);
    if (this.#stop || this.#pausing || this.#budgetStop || at < 0) return;
    const { config, hooks, graph } = this.#host;
    if (this.#atExecutionLimit(nodeId)) return;
    // A node a stop left running goes on where its agent stood; its execution was counted when it started.
    const continues = state.continuing.includes(nodeId);
    let budget: BudgetScope | undefined;
    if (this.#host.budget) {
      budget = await this.#host.budget.startNode(nodeId, hooks, this.#emit, continues);
      if (!budget) return void (this.#budgetStop ??= this.#host.budget.exceeded); // the node stays waiting: a resume runs it
      at = state.waiting.findIndex((a) => a.nodeId === nodeId); // others may have settled or started meanwhile
      if (this.#stop || this.#pausing || at < 0 || this.#atExecutionLimit(nodeId)) return;
    }
    const activation = state.waiting[at] as Activation;
    const target = config.nodes.get(nodeId)?.target;
    const agent = target instanceof Agent ? target : undefined;
    // Out of `waiting` and into `running` (with its count) in one synchronous step: every state
    // document written from now on, by this node or a sibling, has the node in one of the two.
    state.waiting = state.waiting.filter((_, i) => i !== at);
    state.running[nodeId] = this.#inFlight(activation, agent, continues);
    if (continues) state.continuing = state.continuing.filter((id) => id !== nodeId);
    const count = (state.counts[nodeId] = (state.counts[nodeId] ?? 0) + 1);
    state.executionCount++;
    const answers = state.answers[nodeId];
    // Without a BeforeNodeCallEvent callback the event would come back unchanged: it is not built.
    let cancelNode: boolean | string = false;
    if (hooks.has(BeforeNodeCallEvent)) {
      try {
        const before = await hooks.invoke(
          new BeforeNodeCallEvent(graph, {
            nodeId,
            invocationState: this.#invocationState,
            interrupt: beforeNodeAsk(graph.id, nodeId, answers),
          }),
        );
        cancelNode = before.cancelNode;
      } catch (error) {
        if (!(error instanceof InterruptRaised)) throw error;
        return this.#pause(activation, 'before', error.interrupts, undefined);
      }
    }
    if (cancelNode !== false) {
      const reason =
        typeof cancelNode === 'string' ? cancelNode : `Node ${nodeId} was cancelled by a BeforeNodeCallEvent hook.`;
      delete state.running[nodeId];
      state.counts[nodeId] = count - 1;
      state.executionCount--;
      return this.#settle(
        activation,
        {
          nodeId,
          status: 'failed',
          text: '',
          error: reason,
          usage: emptyUsage(),
          executionTimeMs: 0,
          executionCount: count - 1,
        },
        false,
      );
    }
    // Nothing is written when a node starts: the last state document has it waiting (or running), with
    // where its agent stood. A reset agent is the exception: its new start point is written first.
    if (count > 1 && config.resetOnRevisit && agent) {
      await this.#resetAgent(nodeId, agent);
      state.running[nodeId] = { ...this.#inFlight(activation, agent), interruptState: undefined };
      await this.#write({});
    }
    this.#emit?.({ type: 'nodeStart', nodeId });
    const input = answerPrompt(answers) ?? buildNodeInput(state.task, activation.sources, state.results);
    const result = await runNode({
      node: config.nodes.get(nodeId) as NonNullable<ReturnType<GraphConfig['nodes']['get']>>,
      input: continues && agent ? undefined : input,
      idempotencyScope: `${this.#host.session?.sessionId ?? ''}/${graph.id}/${state.runId}/${nodeId}#${count}`,
      runSignal: this.#controller.signal,
      timeoutMs: config.nodeTimeoutMs,
      invocationState: this.#invocationState,
      executionCount: count,
      onEvent: this.#emit,
      budget,
    });
    if (this.#stopStatus() === 'interrupted') return this.#stopped(activation, agent, undefined);
    if (result.status === 'interrupted' && result.interrupts)
      return this.#pause(activation, 'node', result.interrupts, result);
    if (result.status === 'budgetExceeded') {
      this.#budgetStop ??= result.budgetExceeded;
      if (result.budgetExceeded) this.#host.budget?.nodeStopped(result.result);
      return this.#stopped(activation, agent, result);
    }
    delete state.running[nodeId];
    delete state.answers[nodeId];
    await this.#settle(activation, result, true);
  }

  /**
   * A node stopped at a safe point (its budget, a cancellation) stays in `running`, and what its agent
   * did so far is committed with where it stood: a resume continues the agent from there (its finished
   * tool calls are not run again, a turn stopped between its tool uses runs only the rest).
   */
  async #stopped(activation: Activation, agent: Agent | undefined, result: NodeResult | undefined): Promise<void> {
    const { nodeId } = activation;
    this.#state.running[nodeId] = this.#inFlight(activation, agent, true);
    if (result) this.#state.results[nodeId] = result;
    await this.#write({ agent });
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
    const state = this.#state;
    const { nodeId } = activation;
    delete state.running[nodeId];
    state.counts[nodeId] = (state.counts[nodeId] ?? 1) - 1;
    state.executionCount--;
    state.paused[nodeId] = { sources: [...activation.sources], stage, interrupts };
    if (result) state.results[nodeId] = result;
    this.#pausing = true;
    const target = this.#host.config.nodes.get(nodeId)?.target;
    const stored = await this.#write({
      transitions: [pauseTransition(nodeId, stage, interrupts)],
      agent: target instanceof Agent ? target : undefined,
    });
    if (result) this.#emit?.({ type: 'nodeStop', nodeId, result });
    this.#publish(stored);
    if (result && this.#host.hooks.has(AfterNodeCallEvent))
      await this.#host.hooks.invoke(
        new AfterNodeCallEvent(this.#host.graph, { nodeId, invocationState: this.#invocationState, result }),
      );
  }

  /** Records a finished (or cancelled) node, follows its edges, persists, then starts what became ready. */
  async #settle(activation: Activation, result: NodeResult, ran: boolean): Promise<void> {
    const state = this.#state;
    const { nodeId } = activation;
    const { config, hooks, graph } = this.#host;
    state.results[nodeId] = result;
    if (ran) {
      (state.places[nodeId] ??= []).push(state.executionOrder.length);
      state.executionOrder.push(nodeId);
      addUsage(state.usage, result.usage);
    }
    const ok = result.status === 'completed';
    let fired: FiredEdge[] = [];
    if (!this.#stop && (ok || config.continueOnFailure)) {
      // The arrival is stored before anything is awaited: nodes finishing together cannot lose it.
      const arrival = arriveAt(nodeId, ok, this.#outgoing.get(nodeId) ?? [], state.joins);
      state.joins = arrival.joins;
      fired = await checkConditions(arrival.candidates, this.graphState());
    }
    for (const f of fired) state.waiting = addActivation(state.waiting, { nodeId: f.edge.to, sources: f.sources });
    const transitions: NewTransition[] = fired.map((f) => ({
      from: nodeId,
      to: f.edge.to,
      kind: f.edge.join ? 'join' : 'edge',
      reason: describeEdge(f.edge),
    }));
    state.handled = state.handled.filter((id) => id !== nodeId);
    if (!ok) {
      if (fired.length > 0) state.handled.push(nodeId);
      else transitions.push({ from: nodeId, to: null, kind: 'fail', reason: result.error ?? 'failed' });
      if (!config.continueOnFailure) this.halt('failed', `Node ${nodeId} failed: ${result.error ?? 'unknown error'}`);
    }
    const target = config.nodes.get(nodeId)?.target;
    // The node entry is a JSON copy of the result: made only when a session stores it.
    const node = this.#host.session ? { id: nodeId, entry: nodeEntry(result, state.places[nodeId] ?? []) } : undefined;
    const stored = await this.#write({ node, transitions, agent: target instanceof Agent ? target : undefined });
    this.#emit?.({ type: 'nodeStop', nodeId, result });
    this.#publish(stored);
    if (hooks.has(AfterNodeCallEvent))
      await hooks.invoke(new AfterNodeCallEvent(graph, { nodeId, invocationState: this.#invocationState, result }));
    for (const f of fired) this.#schedule(f.edge.to);
    if (state.waiting.some((a) => a.nodeId === nodeId)) this.#schedule(nodeId);
  }

  async #resetAgent(nodeId: string, agent: Agent): Promise<void> {
    const initial = this.#host.initial.get(nodeId);
    if (!initial) return;
    agent.messages = structuredClone(initial.messages);
    agent.state.replace(initial.state);
    agent.conversationManager.restoreFromSession(initial.conversation);
    await this.#host.session?.resetAgent(agent);
  }

  /** A node moving to `running`: its sources and, for an agent, what it looked like and where its stored history stood. */
  #inFlight(activation: Activation, agent: Agent | undefined, continues = false): InFlight {
    const mark = continues ? { continues: true as const } : {};
    // Only state documents read the agent's snapshot: without a session there is none to write.
    if (!agent || !this.#host.session)
      return { sources: [...activation.sources], messages: undefined, state: undefined, ...mark };
    const checkpoint = this.#host.session?.checkpointOf(agent);
    return {
      sources: [...activation.sources],
      messages: agent.messages.length,
      state: agent.state.get(),
      interruptState: interruptStateOf(agent),
      ...(checkpoint ? { checkpoint } : {}),
      ...mark,
    };
  }

  /** Where the agents of the waiting nodes stand now (stored with them; see `stateDocument`). */
  #startPoints(): Map<string, InFlight> {
    const points = new Map<string, InFlight>();
    for (const a of this.#state.waiting) {
      const target = this.#host.config.nodes.get(a.nodeId)?.target;
      if (target instanceof Agent && !points.has(a.nodeId)) points.set(a.nodeId, this.#inFlight(a, target));
    }
    return points;
  }

  #stopStatus(): Status | undefined {
    return this.#stop?.status;
  }

  /** What edge conditions see. */
  graphState(): GraphState {
    const s = this.#state;
    return { task: s.task, results: s.results, executionOrder: s.executionOrder, executionCount: s.executionCount };
  }

  async #finish(): Promise<GraphResult> {
    const state = this.#state;
    const unhandled = Object.values(state.results).filter(
      (r) => r.status === 'failed' && !state.handled.includes(r.nodeId),
    );
    const budgetStop = this.#budgetStop;
    const stranded =
      this.#stop || this.#pausing || budgetStop
        ? []
        : strandedJoins(this.#host.config.edges, state.joins, state.results, state.places);
    const waitsFor = pendingInterrupts(state);
    const status: Status =
      this.#stop?.status ??
      (waitsFor.length > 0
        ? 'interrupted'
        : budgetStop
          ? 'budgetExceeded'
          : unhandled.length > 0 || stranded.length > 0
            ? 'failed'
            : 'completed');
    const reason =
      this.#stop?.reason ??
      (status === 'budgetExceeded' && budgetStop
        ? `Stopped because ${describeExceeded(budgetStop)}; invoke the graph again (same session) with a larger budget to resume.`
        : undefined) ??
      (unhandled.length > 0
        ? `No edge routes around failed node(s): ${unhandled.map((r) => `${r.nodeId} (${r.error ?? 'failed'})`).join('; ')}`
        : stranded.length > 0
          ? `A join never fired: ${stranded.join('; ')}`
          : undefined);
    state.status = status;
    state.failureReason = reason;
    if (!this.#fatal && status !== 'interrupted') {
      const last = state.executionOrder[state.executionOrder.length - 1] ?? null;
      const end: NewTransition = {
        from: last,
        to: null,
        kind: status === 'completed' ? 'complete' : status === 'budgetExceeded' ? 'budget' : 'fail',
        reason: reason ?? 'every reachable node ran',
      };
      await this.#guard(async () => this.#publish(await this.#write({ transitions: [end] })));
    } else if (!this.#fatal) await this.#guard(async () => void (await this.#write({})));
    if (!this.#fatal && this.#host.session) await this.#guard(() => (this.#host.session as GraphSession).settle());
    if (this.#fatal) throw this.#fatal.error;
    const result = graphResult(
      state,
      status,
      reason,
      this.#host.config.nodes.size,
      this.elapsedMs(),
      status === 'interrupted' ? waitsFor : [],
    );
    if (this.#host.budget) Object.assign(result, this.#host.budget.report());
    if (status === 'budgetExceeded' && budgetStop) result.budgetExceeded = budgetStop;
    return result;
  }

  /** Time spent on this run, earlier processes included. */
  elapsedMs(): number {
    return this.#state.elapsedBeforeMs + (performance.now() - this.#started);
  }

  /** Persists the current state (taken now, synchronously) with an optional node entry and transitions; returns the stored transitions. */
  async #write(w: {
    node?: { id: string; entry: JsonObject } | undefined;
    agent?: Agent | undefined;
    transitions?: NewTransition[];
    first?: boolean;
  }): Promise<NodeTransition[]> {
    const session = this.#host.session;
    const transitions = w.transitions ?? [];
    if (!session) return transitions.map((t) => ({ seq: -1, ...t, at: nowIso() }));
    const budget = this.#host.budget;
    const doc = {
      ...stateDocument(this.#state, this.elapsedMs(), this.#startPoints()),
      shape: (this.#shape ??= graphShape(this.#host.config)),
      ...(budget ? { budget: { ...budget.spent() } } : {}),
    };
    if (w.first) return session.start(doc, transitions);
    return session.save({ ...(w.node ? { node: w.node } : {}), agent: w.agent, transitions, state: doc });
  }

  #publish(transitions: NodeTransition[]): void {
    const list = this.#state.transitions;
    for (const stored of transitions) {
      const t = stored.seq < 0 ? { ...stored, seq: list.length } : stored;
      list.push(t);
      if (list.length > 1 && (list[list.length - 2] as NodeTransition).seq > t.seq) list.sort((a, b) => a.seq - b.seq);
      this.#emit?.({ type: 'transition', transition: t });
    }
  }
}
