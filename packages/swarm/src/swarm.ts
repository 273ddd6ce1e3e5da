import {
  attachMemberMemory,
  type AgentMemory,
  ConcurrencyError,
  ConfigurationError,
  EventSource,
  forkRun,
  historyLines,
  HookRegistry,
  journalHistory,
  LockstepStream,
  MultiAgentInitializedEvent,
  RunJournal,
  stateAtStep,
  type Agent,
  type Emit,
  type Interrupt,
  type JsonObject,
  type MultiAgentBase,
  type MultiAgentInvokeOptions,
  type MultiAgentStreamEvent,
  type MultiAgentTask,
  type SessionManager,
} from '@skein/core';
import type { HandoffRunSettings } from '@skein/handoffs';
import { waitingFor } from './paused-turn.js';
import { replayedResult } from './replay.js';
import { SwarmMembers } from './swarm-members.js';
import { handoffSettings, resolveSwarmOptions, type ResolvedSwarmOptions, type SwarmOptions } from './swarm-options.js';
import type { SwarmResult } from './swarm-result.js';
import { emitter, NOBODY, type SwarmEvent } from './swarm-event.js';
import { invokeSwarm, type InvocationHost } from './swarm-invocation.js';
export type { SwarmEvent } from './swarm-event.js';
import { swarmPart } from './swarm-journal.js';
import type { SwarmFork, SwarmForkOptions, SwarmHistoryStep, SwarmStepState } from './swarm-journal.js';
import { SwarmRun, type SwarmParts } from './swarm-run.js';
import { SwarmLog } from './swarm-log.js';

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
export class Swarm extends EventSource<SwarmEvent> implements MultiAgentBase {
  readonly id: string;
  readonly kind = 'multiAgent' as const;
  /** Callbacks on multi-agent events (node calls, run start and end). */
  readonly hooks = new HookRegistry();
  readonly #members: SwarmMembers;
  readonly #memory: AgentMemory | undefined;
  #lastResult: SwarmResult | undefined;
  readonly #options: ResolvedSwarmOptions;
  readonly #settings: HandoffRunSettings;
  readonly #entry: string;
  readonly #log: SwarmLog;
  /** The swarm's part of its journal (history lines, state at a step, fork edits). */
  readonly #part: ReturnType<typeof swarmPart>;
  readonly #run: SwarmRun;
  readonly #invocationHost: InvocationHost;
  #ready: Promise<void> | undefined;
  #running = false;

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
    return new Swarm({
      ...options,
      nodes: SwarmMembers.reachable(entryAgent),
      entryPoint: entryAgent,
    });
  }

  constructor(options: SwarmOptions) {
    super();
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
    this.#part = swarmPart(this.#members, this.#settings);
    const manager = options.sessionManager as SessionManager | undefined;
    this.#log = new SwarmLog(new RunJournal(manager, this.id, 'swarm', options.history), this.#members.ids);
    const initialStates = new Map<string, JsonObject>();
    for (const id of this.#members.ids) initialStates.set(id, this.#members.agent(id).state.get());
    for (const provider of options.hooks ?? []) this.hooks.addHook(provider);
    this.#memory = options.memory;
    attachMemberMemory(options.memory, options.nodes);
    const parts: SwarmParts = {
      swarm: this,
      hooks: this.hooks,
      members: this.#members,
      options: this.#options,
      settings: this.#settings,
      log: this.#log,
      entry: this.#entry,
      initialStates,
      guardrails: options,
    };
    this.#run = new SwarmRun(parts);
    this.#invocationHost = {
      swarm: this,
      hooks: this.hooks,
      run: this.#run,
      log: this.#log,
      memory: this.#memory,
      finished: (result) => void (this.#lastResult = result),
    };
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
  invoke(task: MultiAgentTask, options: MultiAgentInvokeOptions = {}): Promise<SwarmResult> {
    // Without listeners nobody reads the members' own events, so the run does not pass them on.
    return this.#guarded(task, options, undefined);
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
    return new LockstepStream((reader) => this.#guarded(task, options, reader));
  }

  /** One run at a time; `reader`: the `stream()` reader's side (none: `invoke`, and no `nodeStream` events unless listened to). */
  async #guarded(
    task: MultiAgentTask,
    options: MultiAgentInvokeOptions,
    reader: Emit<MultiAgentStreamEvent> | undefined,
  ): Promise<SwarmResult> {
    if (this.#running) throw new ConcurrencyError(`Swarm ${this.id} is already running; wait for its run to finish.`);
    this.#running = true;
    try {
      const listeners = this.listeners;
      const quiet = !reader && !listeners;
      const path = options.guardrails?.path ?? '';
      await this.#initialize();
      return await invokeSwarm(
        this.#invocationHost,
        task,
        options,
        quiet,
        quiet ? NOBODY : emitter(listeners, reader, path),
      );
    } finally {
      this.#run.budget?.close();
      this.#run.budget = undefined;
      this.#running = false;
    }
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
    return replayedResult(this.#log, this.#members, this.#settings);
  }

  /**
   * What the paused run waits for (empty when none), also when it paused in another process (read
   * from the session). Answer with `swarm.invoke([{ interruptResponse }])`.
   */
  async pendingInterrupts(): Promise<Interrupt[]> {
    if (this.#running) return [];
    await this.#initialize();
    return waitingFor(this.#run.state);
  }

  /**
   * Every committed step of every run kept in the swarm's session (option `history`), oldest first:
   * its number, the transitions that made it, the member running next, the node history so far.
   */
  async history(): Promise<SwarmHistoryStep[]> {
    return historyLines(await journalHistory(this.#log.journal, 'history()'), this.#part.line);
  }

  /** The swarm as it stood at `step`: task, conversation passed on, shared context, each member's messages and state (its turns replayed, no model called). */
  async stateAt(step: number): Promise<SwarmStepState> {
    const history = await journalHistory(this.#log.journal, 'stateAt()');
    return stateAtStep(history, step, this.#part.stateAt);
  }

  /**
   * Makes a new session `to` in the same store whose run continues from `step`, with optional edits
   * (validated first); the swarm's own session is only read. Build the swarm on a session manager for
   * `to` and invoke it to continue; replay the original's model outputs with the returned `recording`.
   */
  async fork(options: SwarmForkOptions): Promise<SwarmFork> {
    return forkRun(this.#log.journal, this.#part, options);
  }

  #initialize(): Promise<void> {
    this.#ready ??= (async () => {
      const stored = await this.#log.open(this.#members);
      if (stored) this.#run.adopt(stored);
      await this.hooks.invoke(new MultiAgentInitializedEvent(this));
    })().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }
}
