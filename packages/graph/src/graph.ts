import {
  attachMemberMemory,
  openOrchestratorTurn,
  OrchestratorBudget,
  AfterMultiAgentInvocationEvent,
  BeforeMultiAgentInvocationEvent,
  ConcurrencyError,
  HookRegistry,
  EventChannel,
  isAgent,
  EventSource,
  forkRun,
  historyLines,
  journalHistory,
  MultiAgentInitializedEvent,
  GuardrailTripped,
  promptResponses,
  taskText,
  RunJournal,
  stateAtStep,
  type Interrupt,
  type MultiAgentBase,
  type MultiAgentInvokeOptions,
  type MultiAgentStreamEvent,
  type MultiAgentTask,
  type NewTransition,
} from '@skein/core';
import { graphPart } from './graph-journal.js';
import type { GraphFork, GraphForkOptions, GraphHistoryStep, GraphStepState } from './graph-journal.js';
import { graphResult } from './graph-result.js';
import { GraphRun } from './graph-run.js';
import type { RunHost } from './run-host.js';
import type { GraphConfig, GraphEdge, GraphNode, GraphResult } from './graph-types.js';
import { toMermaid } from './mermaid.js';
import { pendingInterrupts } from './paused-nodes.js';
import { openingTransitions } from './run-start.js';
import { newRunState, requeueRunning, type RunState } from './run-state.js';
import { checkTask, trippedBy } from './guarded-task.js';
import { finishedRun, pausedFor, resumeRun } from './run-resume.js';

/**
 * A deterministic, parallel, resumable graph of agents and nested orchestrators. Build one with
 * `GraphBuilder`. Design choices: a node runs once per activation (any incoming edge that holds;
 * a join waits for all its sources), activations that arrive before the node starts merge into one
 * run; a failed node follows only conditional edges (with `continueOnFailure`); cancellation ends a
 * run as `interrupted` and a session resumes it; node agents keep their history between runs.
 * @example
 * const graph = new GraphBuilder().addNode(researcher).addNode(writer).addEdge('researcher', 'writer').build();
 * const result = await graph.invoke('Write about graphs of agents');
 * console.log(result.status, result.results['writer']?.text);
 */
export class Graph extends EventSource<MultiAgentStreamEvent> implements MultiAgentBase {
  /** The graph's id (its session stores the run under it). */
  readonly id: string;
  /** Marks the graph as an orchestrator, so it can be a node of another Graph or of a Swarm. */
  readonly kind = 'multiAgent' as const;
  /** Multi-agent hook events: `BeforeNodeCallEvent` (writable `cancelNode`), `AfterNodeCallEvent`, ... */
  readonly hooks = new HookRegistry();
  /** The nodes, by id, in insertion order. */
  readonly nodes: ReadonlyMap<string, GraphNode>;
  /** The edges, in insertion order. */
  readonly edges: readonly GraphEdge[];
  /** Where runs start. */
  readonly entryPoints: readonly string[];
  readonly #config: GraphConfig;
  readonly #initial: RunHost['initial'];
  /** Where runs are stored (through the session manager, when there is one). */
  readonly #journal: RunJournal;
  /** The graph's part of its journal (history lines, state at a step, fork edits). */
  readonly #part: ReturnType<typeof graphPart>;
  #running = false;
  #initialized = false;
  #lastResult: GraphResult | undefined;
  /** A run waiting for answers, without a session manager to keep it. */
  #paused: RunState | undefined;
  /** A run its budget stopped, without a session manager to keep it: the next invoke resumes it. */
  #stopped: RunState | undefined;

  /** Use `GraphBuilder.build()`. */
  constructor(config: GraphConfig) {
    super();
    this.#config = config;
    this.id = config.id;
    this.nodes = config.nodes;
    this.edges = config.edges;
    this.entryPoints = config.entryPoints;
    this.#journal = new RunJournal(config.sessionManager, config.id, 'graph', config.history);
    this.#part = graphPart(config);
    attachMemberMemory(
      config.memory,
      [...config.nodes.values()].map((n) => n.target),
    );
    const initial: RunHost['initial'] extends ReadonlyMap<string, infer V> ? Map<string, V> : never = new Map();
    for (const node of config.nodes.values()) {
      const t = node.target;
      if (isAgent(t))
        initial.set(node.id, {
          messages: structuredClone(t.messages),
          state: t.state.get(),
          conversation: t.conversationManager.getState(),
        });
    }
    this.#initial = initial;
  }

  /** Runs the graph on `task` (or resumes the session's unfinished run) and resolves with the result; limits and failures end as status `failed`. */
  invoke(task: MultiAgentTask, options: MultiAgentInvokeOptions = {}): Promise<GraphResult> {
    const listeners = this.listeners;
    return this.#run(task, options, listeners ? (e) => listeners.emit(e) : undefined, () => undefined);
  }

  /** Runs the graph, yielding `nodeStart`, `nodeStream`, `nodeStop` and `transition` events; returns the result. */
  async *stream(
    task: MultiAgentTask,
    options: MultiAgentInvokeOptions = {},
  ): AsyncGenerator<MultiAgentStreamEvent, GraphResult> {
    const channel = new EventChannel<MultiAgentStreamEvent>();
    let run: GraphRun | undefined;
    let outcome: { result: GraphResult } | { error: unknown } | undefined;
    const listeners = this.listeners;
    const emit = listeners
      ? (e: MultiAgentStreamEvent): void => (channel.push(e), listeners.emit(e))
      : (e: MultiAgentStreamEvent): void => channel.push(e);
    const settled = this.#run(task, options, emit, (r) => (run = r))
      .then(
        (result) => void (outcome = { result }),
        (error: unknown) => void (outcome = { error }),
      )
      .finally(() => channel.close());
    try {
      for (let event = await channel.next(); event !== undefined; event = await channel.next()) yield event;
      await settled;
      if (outcome && 'result' in outcome) return outcome.result;
      throw (outcome as { error: unknown }).error;
    } finally {
      if (!outcome) {
        run?.halt('interrupted', 'The stream was closed before the run ended.');
        await settled;
      }
    }
  }

  /**
   * The result of the last run that finished (`completed` or `failed`): from this process, or read
   * from the session when the run finished in another one (a caller killed after the run was stored
   * gets its answer without paying for the task again). `undefined` when there is none, or when the
   * stored run is unfinished (invoke the graph to resume it).
   */
  async lastResult(): Promise<GraphResult | undefined> {
    if (this.#lastResult) return this.#lastResult;
    if (!this.#journal.persistent || this.#running) return undefined;
    const state = await finishedRun(this.#journal, this.#config);
    if (!state) return undefined;
    const elapsed = state.elapsedBeforeMs;
    return graphResult(state, state.status, state.failureReason, this.#config.nodes.size, elapsed);
  }

  /**
   * What the paused run waits for (empty when none): from this process, or read from the session
   * when the run paused in another one. Answer with `graph.invoke([{ interruptResponse }])`.
   */
  async pendingInterrupts(): Promise<Interrupt[]> {
    if (this.#paused) return pendingInterrupts(this.#paused);
    if (!this.#journal.persistent || this.#running) return [];
    return pausedFor(this.#journal, this.#config);
  }

  /** The graph as a Mermaid flowchart. */
  toMermaid(): string {
    return toMermaid(this.#config);
  }

  /**
   * Every committed step of every run kept in the graph's session (see `setHistory`), oldest first:
   * its number, the transitions that made it, and which nodes were running, waiting, paused and done.
   */
  async history(): Promise<GraphHistoryStep[]> {
    return historyLines(await journalHistory(this.#journal, 'history()'), this.#part.line);
  }

  /** The graph as it stood at `step`: task, results, execution order, transitions, each agent node's messages and state. */
  async stateAt(step: number): Promise<GraphStepState> {
    const history = await journalHistory(this.#journal, 'stateAt()');
    return stateAtStep(history, step, this.#part.stateAt);
  }

  /**
   * Makes a new session `to` in the same store whose run continues from `step`, with optional edits
   * (validated first); the graph's own session is only read. Build the graph on a session manager for
   * `to` and invoke it to continue; replay the original's model outputs with the returned `recording`.
   * @example
   * const fork = await graph.fork({ step: 1, to: 'what-if', edit: { results: { triage: 'ROUTE: refund' } } });
   */
  async fork(options: GraphForkOptions): Promise<GraphFork> {
    return forkRun(this.#journal, this.#part, options);
  }

  async #run(
    task: MultiAgentTask,
    options: MultiAgentInvokeOptions,
    emit: ((event: MultiAgentStreamEvent) => void) | undefined,
    onRun: (run: GraphRun) => void,
  ): Promise<GraphResult> {
    if (this.#running)
      throw new ConcurrencyError(
        `Graph ${this.id} is already running; wait for its run to finish (or build another Graph).`,
      );
    this.#running = true;
    let budget: OrchestratorBudget | undefined;
    try {
      const invocationState = options.invocationState ?? {};
      const { resumed, start } = await this.#openRun(task);
      const checked = resumed ? task : await checkTask(this.#config, task, options, this.#journal.sessionId);
      const state = resumed ?? newRunState(checked, this.entryPoints);
      if (!this.#initialized) {
        this.#initialized = true;
        await this.hooks.invoke(new MultiAgentInitializedEvent(this));
      }
      await this.hooks.invoke(new BeforeMultiAgentInvocationEvent(this, invocationState));
      budget = OrchestratorBudget.open(
        options.budget,
        invocationState,
        options.invocationState === undefined,
        this,
        'graph',
        resumed?.budgetSpent,
      );
      const memory = openOrchestratorTurn(this.#config.memory, options.memory, state.task);
      const host: RunHost = {
        config: this.#config,
        graph: this,
        hooks: this.hooks,
        journal: this.#journal,
        initial: this.#initial,
        budget,
        guardrails: options.guardrails,
        principal: options.principal,
        memory: memory.target,
        depth: options.depth,
      };
      const run = new GraphRun(host, state, invocationState, emit);
      onRun(run);
      const result = await run.execute(start, options.signal);
      if (checked !== task) result.rewrittenTask = taskText(checked);
      this.#keep(result, state, budget);
      await memory.close(result);
      await this.hooks.invoke(new AfterMultiAgentInvocationEvent(this, { invocationState, result }));
      const tripped = trippedBy(result);
      if (tripped) throw new GuardrailTripped({ ...tripped, result });
      return result;
    } finally {
      budget?.close();
      this.#running = false;
    }
  }

  /**
   * Where a run starts: the state it resumes (the session's, or one kept in memory: paused for
   * answers, or stopped by a budget) and its opening transitions.
   */
  async #openRun(task: MultiAgentTask): Promise<{ resumed: RunState | undefined; start: NewTransition[] }> {
    // Answers resume a paused run; a plain task while one is paused starts afresh (its nodes' agents
    // close what they waited for on their next prompt).
    const responses = promptResponses(task);
    const resumed = this.#journal.persistent
      ? await resumeRun(this.#journal, this.#config, {
          answering: responses !== undefined,
        })
      : responses
        ? this.#paused
        : this.#stopped;
    const start = openingTransitions(this.id, this.entryPoints, resumed, responses);
    this.#paused = undefined;
    this.#stopped = undefined;
    return { resumed, start };
  }

  /** What the graph keeps of a finished run: the result, and without a session the state to go on from. */
  #keep(result: GraphResult, state: RunState, budget: OrchestratorBudget | undefined): void {
    const kept = this.#journal.persistent;
    if (result.status === 'completed' || result.status === 'failed') this.#lastResult = result;
    if (result.interrupts && !kept) this.#paused = state;
    if (result.status === 'budgetExceeded' && !kept) {
      this.#stopped = requeued(state);
      if (budget) state.budgetSpent = { ...budget.spent() };
    }
  }
}

/** A stopped run, its running nodes put back to continue (see `requeueRunning`). */
function requeued(state: RunState): RunState {
  requeueRunning(state);
  return state;
}
