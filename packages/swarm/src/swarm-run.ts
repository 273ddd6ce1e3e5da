import {
  InterruptResponseError,
  type GuardrailTripped,
  type OrchestratorGuardrails,
  isUnfinished,
  promptResponses,
  type HookRegistry,
  type InvocationState,
  type JsonObject,
  type Message,
  type MultiAgentBase,
  type MultiAgentTask,
  type NodeResult,
  type NodeTransition,
  type OrchestratorBudget,
} from '@skein/core';
import type { HandoffRunSettings } from '@skein/handoffs';
import type { RunContext } from './apply-turn.js';
import { resumeWithAnswers, waitingFor } from './paused-turn.js';
import { replayTurns } from './replay.js';
import type { SwarmMembers } from './swarm-members.js';
import type { ResolvedSwarmOptions } from './swarm-options.js';
import { swarmResult, type SwarmResult } from './swarm-result.js';
import { freshState, type SwarmRunState } from './swarm-state.js';
import type { StoredRun, SwarmLog } from './swarm-log.js';
import type { SwarmTurn } from './swarm-turn.js';
import type { SwarmEmit } from './swarm-event.js';
import { StartingHistory } from './starting-history.js';
import { taskMessages } from './task.js';

/** What a run needs from its swarm (fixed for the swarm's life). */
export interface SwarmParts {
  swarm: MultiAgentBase;
  hooks: HookRegistry;
  members: SwarmMembers;
  options: ResolvedSwarmOptions;
  settings: HandoffRunSettings;
  /** The swarm's log (its run journal: `log.journal`). */
  log: SwarmLog;
  /** The entry point's node id. */
  entry: string;
  /** Each member's agent state when the swarm was constructed. */
  initialStates: ReadonlyMap<string, JsonObject>;
  /** The swarm's guardrails: its task's, and those every member runs with. */
  guardrails?: OrchestratorGuardrails | undefined;
}

/**
 * The swarm's current run: its state, the conversation passed on and the shared context, each
 * member's agent state at the end of its latest committed turn, the node results, and a stored run
 * found in the session (replayed by the next invocation). A run spans invocations while it pauses or
 * stops; the next task after a finished one starts a fresh run here.
 */
export class SwarmRun {
  readonly parts: SwarmParts;
  state: SwarmRunState | undefined;
  context: RunContext = { conversation: { inputHistory: [], items: [] }, sharedContext: {} };
  /** The histories members start from, made incrementally as the conversation grows. */
  readonly starting = new StartingHistory();
  results: Record<string, NodeResult> = {};
  readonly #memberStates = new Map<string, JsonObject>();
  #toReplay: StoredRun | undefined;
  /** The start transition, committed with the run's first state, to be handed on by the next `commit`. */
  #startTransitions: NodeTransition[] | undefined;
  /** The budget of the current invocation (`undefined`: none). */
  budget: OrchestratorBudget | undefined;
  /** The guardrail that ended the current invocation's run, until the invocation reports it. */
  tripped: GuardrailTripped | undefined;

  constructor(parts: SwarmParts) {
    this.parts = parts;
  }

  /** Takes over an unfinished run found in the session (replayed when the next invocation opens). */
  adopt(stored: StoredRun): void {
    this.state = stored.state;
    this.results = stored.results;
    this.#toReplay = stored;
  }

  /**
   * Opens an invocation: answers resume a paused run (throwing `InterruptResponseError` when nothing
   * waits), a plain task resumes an unfinished run that waits for no answer, else a fresh run starts.
   * Hands on the transitions it commits; returns the run's state.
   */
  async open(task: MultiAgentTask, invocationState: InvocationState, emit: SwarmEmit): Promise<SwarmRunState> {
    const { log, swarm } = this.parts;
    const state = this.state;
    const responses = promptResponses(task);
    const waiting = waitingFor(state).length > 0;
    if (responses) {
      if (!state || !waiting)
        throw new InterruptResponseError(
          `Swarm ${swarm.id} waits for no answer; invoke it with a task instead of interruptResponse blocks.`,
          [],
        );
      const transition = resumeWithAnswers(state, responses);
      await this.#resume(state, invocationState);
      log.journal.stage(transition);
    } else if (state && !waiting && isUnfinished(state.status)) {
      await this.#resume(state, invocationState);
      log.journal.stage({ from: null, to: state.current, kind: 'resume', reason: resumeReason(state) });
    } else {
      await this.commit(await this.#startFresh(task), emit);
      return this.state as SwarmRunState;
    }
    await this.commit(state, emit);
    return state;
  }

  async #startFresh(task: MultiAgentTask): Promise<SwarmRunState> {
    const { log, members, initialStates, entry } = this.parts;
    const inputHistory: Message[] = taskMessages(task);
    await log.clear();
    for (const [id, initial] of initialStates) members.agent(id).state.replace(initial);
    this.#memberStates.clear();
    this.results = {};
    this.#toReplay = undefined;
    this.context = { conversation: { inputHistory, items: [] }, sharedContext: {} };
    const state = freshState(entry);
    this.state = state;
    // The state (which creates the run, carrying the start transition), then the task, both before the
    // start is reported (a crash between: a fresh start).
    log.journal.stage({ from: null, to: state.current, kind: 'start', reason: 'the task' });
    log.saveTask(inputHistory);
    this.#startTransitions = await this.#step(state);
    return state;
  }

  /**
   * Continues an unfinished run: a run found in the session is rebuilt by replaying its committed
   * turns (conversation, shared context, each member's history and state); the node that was running
   * gets back the state it had at its start (a stopped turn then restores its own, see `runActiveNode`).
   */
  async #resume(state: SwarmRunState, invocationState: InvocationState): Promise<void> {
    const { members, settings } = this.parts;
    const stored = this.#toReplay;
    if (stored) {
      const replayed = await replayTurns(stored.task, stored.turns, members, settings, invocationState);
      this.context = replayed.run;
      this.#memberStates.clear();
      for (const [id, snapshot] of replayed.members) {
        members.agent(id).messages = snapshot.messages;
        this.#memberStates.set(id, snapshot.state);
      }
      for (const id of members.ids) members.agent(id).state.replace(this.memberState(id));
      this.#toReplay = undefined;
    }
    members.agent(state.current).state.replace(this.memberState(state.current));
    state.status = 'executing';
  }

  /** A member's agent state at the end of its latest committed turn (else as constructed). */
  memberState(id: string): JsonObject {
    return this.#memberStates.get(id) ?? this.initialState(id);
  }

  /** A member's agent state as it was when the swarm was constructed. */
  initialState(id: string): JsonObject {
    return this.parts.initialStates.get(id) ?? {};
  }

  /** Stores a finished turn and counts it (the next saved state commits it). */
  commitTurn(state: SwarmRunState, turn: SwarmTurn): void {
    this.parts.log.saveTurn(turn, state.nodeHistory);
    state.turns = turn.seq + 1;
    this.#memberStates.set(turn.node, turn.state);
  }

  /** Saves the state (the commit point) and hands on the transitions it committed. */
  async commit(state: SwarmRunState, emit: SwarmEmit): Promise<void> {
    if (this.budget) state.budget = { ...this.budget.spent() };
    const committed = this.#startTransitions ?? (await this.#step(state));
    this.#startTransitions = undefined;
    for (const transition of committed) await emit({ type: 'transition', transition });
  }

  /** Ends the run as failed, with why and from which node (`tripped`: a guardrail blocked it). */
  async fail(
    state: SwarmRunState,
    reason: string,
    from: string,
    emit: SwarmEmit,
    tripped?: GuardrailTripped,
  ): Promise<void> {
    state.status = 'failed';
    state.failureReason = reason;
    this.tripped = tripped;
    const details = tripped ? { details: { ...tripped.trip } as JsonObject } : {};
    this.parts.log.journal.stage({ from, to: null, kind: tripped ? 'guardrail' : 'fail', reason, ...details });
    await this.commit(state, emit);
  }

  /** True when `task` starts a fresh run (not answers, not the resume of an unfinished one): the swarm's input guardrails check it then. */
  startsFresh(task: MultiAgentTask): boolean {
    const state = this.state;
    if (promptResponses(task)) return false;
    return !(state && waitingFor(state).length === 0 && isUnfinished(state.status));
  }

  /** The run's result now. */
  result(state: SwarmRunState): SwarmResult {
    return swarmResult(state, this.results, this.parts.log.journal.transitions, this.context.sharedContext);
  }

  /** Hands one step to the journal: the staged entries and transitions, and the state document (the commit point) taken now. */
  #step(state: SwarmRunState): Promise<NodeTransition[]> {
    const { log } = this.parts;
    return log.journal.commit({ state: () => log.document(state) });
  }
}

/** Why an unfinished run resumes where it does. */
function resumeReason(state: SwarmRunState): string {
  if (state.pause?.node === state.current && state.pause.stage === 'stopped')
    return `resumed: ${state.current} goes on where it stopped`;
  if (state.pendingHandoff) return `resumed at the handoff target ${state.current}`;
  return `resumed: ${state.current} runs again from its start`;
}
