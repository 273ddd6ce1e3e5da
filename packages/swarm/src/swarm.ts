import {
  OrchestratorBudget,
  budgetStopOf,
  isUnfinished,
  type BudgetScope,
  AfterMultiAgentInvocationEvent,
  BeforeMultiAgentInvocationEvent,
  ConcurrencyError,
  ConfigurationError,
  HookRegistry,
  InterruptResponseError,
  Listeners,
  MultiAgentInitializedEvent,
  promptResponses,
  type ListenedType,
  type Listener,
  type NodeTransition,
  type Agent,
  type InvocationState,
  type JsonObject,
  type MultiAgentBase,
  type MultiAgentInvokeOptions,
  type MultiAgentStreamEvent,
  type Message,
  type MultiAgentTask,
  type NodeResult,
  type SessionManager,
  type Interrupt,
} from '@skein/core';
import type { HandoffRunSettings } from '@skein/handoffs';
import { runActiveNode, type ActiveOutcome } from './active-node.js';
import type { RunContext } from './apply-turn.js';
import { beforeNodeLimit } from './limits.js';
import { budgetTransition } from './budget-stop.js';
import { pauseTransition, resumeWithAnswers, waitingFor } from './pause.js';
import { replayedResult, replayTurns } from './replay.js';
import { SwarmMembers } from './swarm-members.js';
import { handoffSettings, resolveSwarmOptions, type ResolvedSwarmOptions, type SwarmOptions } from './swarm-options.js';
import { swarmResult, type SwarmResult } from './swarm-result.js';
import { handoffEventOf, type SwarmEvent } from './swarm-event.js';
export type { SwarmEvent } from './swarm-event.js';
import { freshState, type SwarmRunState } from './swarm-state.js';
import { SwarmStore, type StoredRun } from './swarm-store.js';
import type { SwarmTurn } from './swarm-turn.js';
import { taskMessages } from './task.js';
import { planTransfer } from './transfer.js';

/** A clock over the run's time budget, counting time spent before a resume. */
interface Clock {
  elapsed(): number;
}

/**
 * Agents that hand the conversation to each other. The active agent answers or calls a
 * `transfer_to_<agent>` tool (its declared handoffs, or by default one per other member, carrying a
 * message and shared context); the next agent receives the conversation so far, shaped by the
 * handoff's input filter, and a note saying who handed over and why. Limits, timeouts and ping-pong
 * detection end the run with status `failed` and a reason instead of throwing.
 *
 * Design choices: one run is one conversation; a new `invoke` after a finished run starts fresh at the
 * entry point (members' state reset to what it was when the swarm was constructed); an interrupted or crashed run
 * resumes at the node that was running, or at the handoff target when the transfer was committed.
 * A session holds an event log (the task, one turn entry per finished node, a small state whose turn
 * count is the commit point), so persisting a node costs in proportion to that node's output; resume
 * replays the committed turns to rebuild the conversation and shared context.
 * @example
 * const swarm = new Swarm({ nodes: [triage, billing, refund], sessionManager });
 * const result = await swarm.invoke('I was charged twice for order 42');
 * console.log(result.status, result.nodeHistory, result.text);
 */
export class Swarm implements MultiAgentBase {
  readonly id: string;
  readonly kind = 'multiAgent' as const;
  /** Callbacks on multi-agent events (node calls, run start and end). */
  readonly hooks = new HookRegistry();
  readonly #members: SwarmMembers;
  #listeners: Listeners<SwarmEvent> | undefined;
  /** The start transition, committed with the run's first state, to be yielded by the next `#commit`. */
  #startTransitions: NodeTransition[] | undefined;
  #lastResult: SwarmResult | undefined;
  readonly #options: ResolvedSwarmOptions;
  readonly #settings: HandoffRunSettings;
  readonly #entry: string;
  readonly #store: SwarmStore;
  readonly #initialStates = new Map<string, JsonObject>();
  #ready: Promise<void> | undefined;
  #state: SwarmRunState | undefined;
  /** The conversation passed on and the shared context of the current run. */
  #context: RunContext = { conversation: { inputHistory: [], items: [] }, sharedContext: {} };
  /** A stored run found when opening the session, replayed by the next invoke. */
  #toReplay: StoredRun | undefined;
  /** Each member's agent state at the end of its latest committed turn in this run. */
  readonly #memberStates = new Map<string, JsonObject>();
  #results: Record<string, NodeResult> = {};
  #running = false;
  /** The budget of the current run (`undefined`: none). */
  #budget: OrchestratorBudget | undefined;

  /**
   * A swarm of `entryAgent` and every agent reachable from it through declared handoffs.
   * @example
   * const triage = new Agent({ model, name: 'Triage agent', handoffs: [billing, handoff(refund)] });
   * const swarm = Swarm.fromAgent(triage, { maxHandoffs: 5 });
   */
  static fromAgent(entryAgent: Agent, options: Omit<SwarmOptions, 'nodes' | 'entryPoint'> = {}): Swarm {
    if (typeof entryAgent !== 'object' || entryAgent === null || typeof entryAgent.invoke !== 'function') {
      throw new ConfigurationError('Swarm.fromAgent(entryAgent, options) needs the entry Agent first.');
    }
    return new Swarm({ ...options, nodes: SwarmMembers.reachable(entryAgent), entryPoint: entryAgent });
  }

  constructor(options: SwarmOptions) {
    this.#options = resolveSwarmOptions(options);
    this.#members = new SwarmMembers(options.nodes);
    this.id = options.id ?? 'default_swarm';
    const entry = options.entryPoint ?? (options.nodes[0] as Agent);
    const entryId = typeof entry === 'string' ? entry : this.#members.idOf(entry);
    if (entryId === undefined || !this.#members.has(entryId)) {
      throw new ConfigurationError(
        `The Swarm's entryPoint must be one of its nodes (${this.#members.ids.join(', ')}).`,
      );
    }
    this.#entry = entryId;
    this.#settings = handoffSettings(options);
    this.#store = new SwarmStore(options.sessionManager as SessionManager | undefined, this.id, this.#members.ids);
    for (const id of this.#members.ids) this.#initialStates.set(id, this.#members.agent(id).state.get());
    for (const provider of options.hooks ?? []) this.hooks.addHook(provider);
  }

  /** Node ids (member names) in the order given. */
  get nodeIds(): string[] {
    return this.#members.ids;
  }

  /** The member agents, in the order given (for tools that instrument or wrap every agent of a run). */
  get nodes(): Agent[] {
    return this.#members.ids.map((id) => this.#members.agent(id));
  }

  /** Runs the swarm on `task` (or resumes an unfinished run) and resolves with the result. */
  async invoke(task: MultiAgentTask, options: MultiAgentInvokeOptions = {}): Promise<SwarmResult> {
    // Without listeners nobody reads the members' own events, so the run does not pass them up.
    const gen = this.#stream(task, options, this.#listeners === undefined);
    for (let step = await gen.next(); ; step = await gen.next()) if (step.done) return step.value;
  }

  /** The swarm as a Mermaid flowchart: a box per member (the entry point highlighted), an arrow per handoff it is offered (`skein graph` prints it). */
  toMermaid(): string {
    return this.#members.toMermaid(this.#entry);
  }

  /** Runs the swarm, yielding node and transition events; the generator returns the result. */
  stream(
    task: MultiAgentTask,
    options: MultiAgentInvokeOptions = {},
  ): AsyncGenerator<MultiAgentStreamEvent, SwarmResult> {
    return this.#stream(task, options, false);
  }

  /** `quiet`: no `nodeStream` events (see `NodeRun.quiet`). */
  async *#stream(
    task: MultiAgentTask,
    options: MultiAgentInvokeOptions,
    quiet: boolean,
  ): AsyncGenerator<MultiAgentStreamEvent, SwarmResult> {
    if (this.#running) throw new ConcurrencyError(`Swarm ${this.id} is already running; wait for its run to finish.`);
    this.#running = true;
    try {
      const listeners = this.#listeners;
      if (!listeners) return yield* this.#run(task, options, quiet);
      const run = this.#run(task, options, quiet);
      for (let step = await run.next(); ; step = await run.next()) {
        if (step.done) return step.value;
        listeners.emit(step.value);
        const handoff = handoffEventOf(step.value);
        if (handoff) listeners.emit(handoff);
        yield step.value;
      }
    } finally {
      this.#budget?.close();
      this.#budget = undefined;
      this.#running = false;
    }
  }

  /**
   * Calls `listener` with every `nodeStart`, `nodeStream` (a member's own events, with its id),
   * `nodeStop`, `transition` or `handoff` event of this swarm's runs, from `invoke` and `stream`
   * alike. A listener that throws does not stop the run (its error goes to `error` listeners, else
   * to a warning).
   */
  on<T extends ListenedType<SwarmEvent>>(type: T, listener: Listener<SwarmEvent, T>): this {
    (this.#listeners ??= new Listeners()).on(type, listener);
    return this;
  }

  /** Like `on`, for the next event of `type` only. */
  once<T extends ListenedType<SwarmEvent>>(type: T, listener: Listener<SwarmEvent, T>): this {
    (this.#listeners ??= new Listeners()).on(type, listener, true);
    return this;
  }

  /** Removes a listener added with `on` or `once`. */
  off<T extends ListenedType<SwarmEvent>>(type: T, listener: Listener<SwarmEvent, T>): this {
    this.#listeners?.off(type, listener);
    return this;
  }

  /**
   * The result of the last run that finished (`completed` or `failed`): from this process, or read
   * from the session when the run finished in another one (a caller killed after the run was stored
   * gets its answer without paying for the task again; the shared context is rebuilt by replaying
   * the stored turns, no model is called). `undefined` when there is none or the stored run is
   * unfinished (invoke the swarm to resume it).
   */
  async lastResult(): Promise<SwarmResult | undefined> {
    if (this.#lastResult) return this.#lastResult;
    if (this.#running) return undefined;
    return replayedResult(this.#store, this.#members, this.#settings);
  }

  /**
   * What the paused run waits for (empty when none), also when it paused in another process (read
   * from the session). Answer with `swarm.invoke([{ interruptResponse }])`.
   */
  async pendingInterrupts(): Promise<Interrupt[]> {
    if (this.#running) return [];
    await this.#initialize();
    return waitingFor(this.#state);
  }

  #initialize(): Promise<void> {
    this.#ready ??= (async () => {
      const stored = await this.#store.open(this.#members);
      if (stored) {
        this.#state = stored.state;
        this.#results = stored.results;
        this.#toReplay = stored;
      }
      await this.hooks.invoke(new MultiAgentInitializedEvent(this));
    })().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async *#run(
    task: MultiAgentTask,
    options: MultiAgentInvokeOptions,
    quiet: boolean,
  ): AsyncGenerator<MultiAgentStreamEvent, SwarmResult> {
    await this.#initialize();
    const invocationState: InvocationState = options.invocationState ?? {};
    let state = this.#state;
    // Answers resume a paused run; a plain task while one is paused starts afresh.
    const responses = promptResponses(task);
    const waiting = waitingFor(state).length > 0;
    if (responses) {
      if (!state || !waiting)
        throw new InterruptResponseError(
          `Swarm ${this.id} waits for no answer; invoke it with a task instead of interruptResponse blocks.`,
          [],
        );
      const transition = resumeWithAnswers(state, responses);
      await this.#resume(state, invocationState);
      this.#store.stage(transition);
      yield* this.#commit(state);
    } else if (state && !waiting && isUnfinished(state.status)) {
      await this.#resume(state, invocationState);
      const reason =
        state.pause?.node === state.current && state.pause.stage === 'stopped'
          ? `resumed: ${state.current} goes on where it stopped`
          : state.pendingHandoff
            ? `resumed at the handoff target ${state.current}`
            : `resumed: ${state.current} runs again from its start`;
      this.#store.stage({ from: null, to: state.current, kind: 'resume', reason });
      yield* this.#commit(state);
    } else {
      state = await this.#startFresh(task);
      yield* this.#commit(state);
    }
    const budget = (this.#budget = OrchestratorBudget.open(
      options.budget,
      invocationState,
      options.invocationState === undefined,
      this,
      'swarm',
      state.budget,
    ));
    const started = performance.now();
    const before = state.elapsedMs;
    const clock: Clock = { elapsed: () => before + (performance.now() - started) };
    await this.hooks.invoke(new BeforeMultiAgentInvocationEvent(this, invocationState));
    for (;;) {
      const limit = beforeNodeLimit(this.#options, state.nodeHistory.length, clock.elapsed(), state.current);
      if (limit) {
        yield* this.#fail(state, limit, state.current);
        break;
      }
      let nodeBudget: BudgetScope | undefined;
      if (budget) {
        const warnings: MultiAgentStreamEvent[] = [];
        const continues = state.pause?.node === state.current && state.pause.stage === 'stopped';
        nodeBudget = await budget.startNode(state.current, this.hooks, (e) => void warnings.push(e), continues);
        yield* warnings;
        if (!nodeBudget) {
          state.status = 'budgetExceeded'; // not finished: the next invoke resumes at this node
          this.#store.stage(budgetTransition(state.current, budget));
          break;
        }
      }
      const outcome: ActiveOutcome = yield* runActiveNode(
        this.#activeHost(clock, nodeBudget, quiet),
        state,
        invocationState,
        options.signal,
      );
      if (outcome.paused && state.pause) {
        state.status = 'interrupted';
        this.#store.stage(pauseTransition(state.pause));
        break;
      }
      if (outcome.interrupted) {
        state.status = 'interrupted';
        break;
      }
      const nodeId = state.current;
      if (outcome.error !== undefined) {
        yield* this.#fail(state, outcome.error, nodeId);
        break;
      }
      if (budgetStopOf(outcome.result)) {
        budget?.nodeStopped(outcome.result);
        state.status = 'budgetExceeded'; // its turn so far is kept in `pause`: the next invoke goes on from there
        if (budget) this.#store.stage(budgetTransition(nodeId, budget));
        break;
      }
      const agent = this.#members.agent(nodeId);
      const turn: SwarmTurn = {
        seq: state.turns,
        node: nodeId,
        newItems: outcome.newItems,
        handoff: undefined,
        state: agent.state.get(),
      };
      const request = outcome.result?.handoff;
      state.pause = undefined;
      state.answers = undefined;
      if (!request) {
        this.#commitTurn(state, turn);
        state.status = 'completed';
        state.pendingHandoff = undefined;
        this.#store.stage({ from: nodeId, to: null, kind: 'complete', reason: 'answered without a handoff' });
        break;
      }
      const ctx = {
        state,
        run: this.#context,
        members: this.#members,
        options: this.#options,
        settings: this.#settings,
        invocationState,
      };
      const plan = await planTransfer(ctx, nodeId, request, outcome.newItems);
      if (plan.failure !== undefined) {
        yield* this.#fail(state, plan.failure, nodeId);
        break;
      }
      // The turn entry first, then the transfer in memory, then the state that commits both.
      this.#commitTurn(state, { ...turn, handoff: plan.handoff });
      this.#context = plan.run;
      const { toolName, toolUseId, input, to } = plan.handoff;
      state.pendingHandoff = { from: nodeId, to, toolName, toolUseId, input };
      state.handoffCount++;
      state.current = to;
      this.#store.stage({ from: nodeId, to, kind: 'handoff', reason: plan.reason, details: plan.details });
      state.elapsedMs = clock.elapsed();
      yield* this.#commit(state);
    }
    state.elapsedMs = clock.elapsed();
    yield* this.#commit(state);
    await this.#store.settle();
    const result = this.#result(state);
    if (budget) Object.assign(result, budget.report());
    const asked = waitingFor(state);
    if (asked.length > 0) result.interrupts = asked;
    if (state.status === 'completed' || state.status === 'failed') this.#lastResult = result;
    await this.hooks.invoke(new AfterMultiAgentInvocationEvent(this, { invocationState, result }));
    return result;
  }

  async #startFresh(task: MultiAgentTask): Promise<SwarmRunState> {
    const inputHistory: Message[] = taskMessages(task);
    await this.#store.clear();
    for (const [id, initial] of this.#initialStates) this.#members.agent(id).state.replace(initial);
    this.#memberStates.clear();
    this.#results = {};
    this.#toReplay = undefined;
    this.#context = { conversation: { inputHistory, items: [] }, sharedContext: {} };
    const state = freshState(this.#entry);
    this.#state = state;
    // The state (which creates the run, carrying the start transition), then the task, both before the start is reported (a crash between: a fresh start).
    this.#store.stage({ from: null, to: state.current, kind: 'start', reason: 'the task' });
    this.#store.saveTask(inputHistory);
    this.#startTransitions = await this.#store.saveState(state);
    return state;
  }

  /**
   * Continues an unfinished run: a run found in the session is rebuilt by replaying its committed
   * turns (conversation, shared context, each member's history and state); the node that was running
   * gets back the state it had at its start, since it runs again from there.
   */
  async #resume(state: SwarmRunState, invocationState: InvocationState): Promise<void> {
    const stored = this.#toReplay;
    if (stored) {
      const replayed = await replayTurns(stored.task, stored.turns, this.#members, this.#settings, invocationState);
      this.#context = replayed.run;
      this.#memberStates.clear();
      for (const [id, snapshot] of replayed.members) {
        this.#members.agent(id).messages = snapshot.messages;
        this.#memberStates.set(id, snapshot.state);
      }
      for (const id of this.#members.ids)
        this.#members.agent(id).state.replace(this.#memberStates.get(id) ?? this.#initial(id));
      this.#toReplay = undefined;
    }
    this.#members
      .agent(state.current)
      .state.replace(this.#memberStates.get(state.current) ?? this.#initial(state.current));
    state.status = 'executing';
  }

  #initial(id: string): JsonObject {
    return this.#initialStates.get(id) ?? {};
  }

  /** Stores a finished turn and counts it (the next saved state commits it). */
  async #commitTurn(state: SwarmRunState, turn: SwarmTurn): Promise<void> {
    this.#store.saveTurn(turn);
    state.turns = turn.seq + 1;
    this.#memberStates.set(turn.node, turn.state);
  }

  #activeHost(clock: Clock, budget: BudgetScope | undefined, quiet: boolean): Parameters<typeof runActiveNode>[0] {
    return {
      swarm: this,
      hooks: this.hooks,
      members: this.#members,
      options: this.#options,
      store: this.#store,
      context: this.#context,
      results: this.#results,
      elapsed: () => clock.elapsed(),
      initialState: (id) => this.#initial(id),
      budget,
      quiet,
    };
  }

  async *#fail(state: SwarmRunState, reason: string, from: string): AsyncGenerator<MultiAgentStreamEvent, void> {
    state.status = 'failed';
    state.failureReason = reason;
    this.#store.stage({ from, to: null, kind: 'fail', reason });
    yield* this.#commit(state);
  }

  /** Saves the state (the commit point) and yields the transitions it committed. */
  async *#commit(state: SwarmRunState): AsyncGenerator<MultiAgentStreamEvent, void> {
    if (this.#budget) state.budget = { ...this.#budget.spent() };
    const committed = this.#startTransitions ?? (await this.#store.saveState(state));
    this.#startTransitions = undefined;
    for (const transition of committed) yield { type: 'transition', transition };
  }

  #result(state: SwarmRunState): SwarmResult {
    return swarmResult(state, this.#results, this.#store.transitions, this.#context.sharedContext);
  }
}
