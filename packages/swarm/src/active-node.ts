import {
  addUsage,
  type MemoryTarget,
  AfterNodeCallEvent,
  BeforeNodeCallEvent,
  beforeNodeAsk,
  budgetStopOf,
  emptyUsage,
  type Agent,
  type BudgetScope,
  InterruptRaised,
  interruptStateOf,
  restoreInterruptState,
  setCheckedHistory,
  type HookRegistry,
  type Interrupt,
  type InvocationGuardrails,
  type InvocationState,
  type JsonObject,
  type Message,
  type MultiAgentBase,
  type AgentStreamEvent,
  nodeStreamEvent,
  type NodeResult,
  type Principal,
} from '@skein/core';
import type { RunContext } from './apply-turn.js';
import { atNode, resumePoint } from './paused-turn.js';
import { runWithRepair, type RepairedOutcome } from './repair-turn.js';
import type { MemberClock } from './member-clock.js';
import type { StartingHistory } from './starting-history.js';
import type { NodeRun } from './run-node.js';
import type { SwarmMembers } from './swarm-members.js';
import type { ResolvedSwarmOptions } from './swarm-options.js';
import type { SwarmRunState } from './swarm-state.js';
import type { SwarmLog } from './swarm-log.js';
import type { SwarmEmit } from './swarm-event.js';

/** How the active node's execution ended; `paused` when it waits for a person. */
export interface ActiveOutcome extends RepairedOutcome {
  paused: Interrupt[] | undefined;
}

/** What running the active node needs of its swarm. */
export interface ActiveNodeHost {
  swarm: MultiAgentBase;
  hooks: HookRegistry;
  members: SwarmMembers;
  options: ResolvedSwarmOptions;
  log: SwarmLog;
  context: RunContext;
  results: Record<string, NodeResult>;
  /** Time spent on the run so far, in ms. */
  elapsed(): number;
  /** The active node's place in the run's budget (`undefined`: no budget). */
  budget?: BudgetScope | undefined;
  /** A member's agent state as it was when the swarm was constructed (where `memberMemory: 'fresh'` starts it). */
  initialState(nodeId: string): JsonObject;
  /** True when nobody reads the members' own events (see `NodeRun.quiet`): no `nodeStream` events are made. */
  quiet: boolean;
  /** Makes the history the active member starts from. */
  starting: StartingHistory;
  /** The guardrails the active member runs with (the swarm's and an enclosing run's), and its path. */
  guardrails?: InvocationGuardrails | undefined;
  /** Who asked, for the member's guardrails. */
  principal?: Principal | undefined;
  /** Whose long-term memory the members read (`undefined`: none). */
  memory?: MemoryTarget | undefined;
  /** How deep nested runs' events reach the stream (`MultiAgentInvokeOptions.depth`). */
  depth?: number | undefined;
}

/**
 * Runs the active node: its BeforeNodeCallEvent hooks (which may cancel it or ask a person), then
 * its agent from the conversation passed on, or from its paused turn with the answers. A node that
 * waits for a person leaves its pause in the run state; its result is stored and reported either way.
 */
export async function runActiveNode(
  host: ActiveNodeHost,
  state: SwarmRunState,
  invocationState: InvocationState,
  clock: MemberClock,
  emit: SwarmEmit,
): Promise<ActiveOutcome> {
  const nodeId = state.current;
  const agent = host.members.agent(nodeId);
  const resume = resumePoint(state, nodeId);
  if (host.options.memberMemory === 'fresh' && !resume) agent.state.replace(host.initialState(nodeId));
  // Without a BeforeNodeCallEvent callback the event would come back unchanged: it is not built.
  let cancelNode: boolean | string = false;
  if (host.hooks.has(BeforeNodeCallEvent)) {
    try {
      const before = await host.hooks.invoke(
        new BeforeNodeCallEvent(host.swarm, {
          nodeId,
          invocationState,
          interrupt: beforeNodeAsk(host.swarm.id, nodeId, state.answers?.before),
        }),
      );
      cancelNode = before.cancelNode;
    } catch (error) {
      if (!(error instanceof InterruptRaised)) throw error;
      state.pause = {
        node: nodeId,
        stage: 'before',
        interrupts: error.interrupts,
        items: [],
        agentState: agent.state.get(),
        interruptState: undefined,
      };
      return { ...notRun(undefined), paused: error.interrupts };
    }
  }
  if (!resume) state.nodeHistory.push(nodeId);
  await emit({ type: 'nodeStart', nodeId });
  let outcome: ActiveOutcome;
  if (cancelNode !== false) {
    const why = typeof cancelNode === 'string' ? cancelNode : 'cancelled by a BeforeNodeCallEvent hook';
    outcome = {
      ...notRun(`Node ${nodeId} was cancelled: ${why}`),
      paused: undefined,
    };
  } else outcome = await runMember(host, state, resume, invocationState, clock, emit);
  const result = nodeResult(state, nodeId, outcome);
  addUsage(state.usage, result.usage);
  host.results[nodeId] = result;
  host.log.saveNode(host.members.key(nodeId), result);
  if (host.hooks.has(AfterNodeCallEvent))
    await host.hooks.invoke(new AfterNodeCallEvent(host.swarm, { nodeId, invocationState, result }));
  await emit({ type: 'nodeStop', nodeId, result });
  return outcome;
}

/**
 * Runs the active member's agent from the conversation passed on (or from its unfinished turn: the
 * answers of a pause, or where a stop left it). A pause or a stop keeps the turn so far in the run
 * state, so the next invocation goes on from there.
 */
async function runMember(
  host: ActiveNodeHost,
  state: SwarmRunState,
  resume: ReturnType<typeof resumePoint>,
  invocationState: InvocationState,
  clock: MemberClock,
  emit: SwarmEmit,
): Promise<ActiveOutcome> {
  const nodeId = state.current;
  const agent = host.members.agent(nodeId);
  const { conversation } = host.context;
  const start = host.starting.for(conversation.inputHistory, conversation.items);
  const startLength = start.length; // `start` becomes the agent's live history and grows
  // Every message was checked when it entered the run (task, stored turns, filters) or came from a member.
  setCheckedHistory(agent, resume ? [...start, ...resume.pause.items] : start);
  if (resume) {
    agent.state.replace(resume.pause.agentState);
    restoreInterruptState(agent, resume.pause.interruptState);
  }
  const run: NodeRun = {
    nodeId,
    agent,
    handoffs: host.members.handoffs(nodeId),
    invocationState,
    clock,
    nodeTimeoutMs: host.options.nodeTimeout,
    remainingMs: host.options.executionTimeout - host.elapsed(),
    executionTimeoutMs: host.options.executionTimeout,
    ...(resume?.prompt ? { prompt: resume.prompt } : {}),
    budget: host.budget,
    idempotencyScope: `${host.log.journal.sessionId ?? ''}/${host.swarm.id}/${state.runId}/t${state.turns}/${nodeId}`,
    quiet: host.quiet,
    guardrails: host.guardrails,
    principal: host.principal,
    memory: host.memory,
    depth: host.depth,
  };
  const onEvent = (event: AgentStreamEvent) => emit(nodeStreamEvent(nodeId, event));
  const ran = await runWithRepair(run, host.options.repairNarratedHandoffs, resume ? resume.pause.items : [], onEvent);
  const newItems = resume ? [...resume.pause.items, ...ran.newItems] : ran.newItems;
  const paused = ran.result?.stopReason === 'interrupt' ? atNode(ran.result.interrupts, nodeId) : undefined;
  // A stop (the budget, a cancellation) keeps the turn so far, as a pause does: a resume goes on from it.
  const stopped = !paused && ran.error === undefined && (ran.interrupted || budgetStopOf(ran.result) !== undefined);
  if (paused || stopped) keepTurn(state, agent, agent.messages.slice(startLength), paused);
  if (ran.repaired) state.repairTurns++;
  return {
    result: ran.result,
    newItems,
    error: ran.error,
    interrupted: ran.interrupted,
    elapsedMs: ran.elapsedMs,
    repaired: ran.repaired,
    earlierUsage: ran.earlierUsage,
    paused,
    tripped: ran.tripped,
  };
}

/** Keeps the turn so far in the run state: a pause (waiting for answers) or a stop (`paused` undefined). */
function keepTurn(state: SwarmRunState, agent: Agent, items: Message[], paused: Interrupt[] | undefined): void {
  state.pause = {
    node: state.current,
    stage: paused ? 'node' : 'stopped',
    interrupts: paused ?? [],
    items,
    agentState: agent.state.get(),
    interruptState: interruptStateOf(agent),
  };
  if (paused) state.answers = state.answers && { before: state.answers.before, node: [] };
}

function notRun(error: string | undefined): RepairedOutcome {
  return {
    result: undefined,
    newItems: [],
    error,
    interrupted: false,
    elapsedMs: 0,
    repaired: undefined,
    earlierUsage: undefined,
  };
}

function nodeResult(state: SwarmRunState, nodeId: string, outcome: ActiveOutcome): NodeResult {
  const usage = emptyUsage();
  if (outcome.earlierUsage) addUsage(usage, outcome.earlierUsage);
  if (outcome.result) addUsage(usage, outcome.result.metrics.usage);
  const budgetStop = budgetStopOf(outcome.result);
  const status =
    outcome.interrupted || outcome.paused
      ? 'interrupted'
      : outcome.error !== undefined
        ? 'failed'
        : budgetStop
          ? 'budgetExceeded'
          : 'completed';
  const text = outcome.result ? String(outcome.result) : '';
  const executionCount = state.nodeHistory.filter((id) => id === nodeId).length;
  // The usual outcome as one literal (the keys and order of the general one below): conditional spreads cost on every node.
  if (status === 'completed' && outcome.result)
    return {
      nodeId,
      status,
      text,
      result: outcome.result,
      usage,
      models: outcome.result.metrics.models,
      executionTimeMs: outcome.elapsedMs,
      executionCount,
    };
  return {
    nodeId,
    status,
    text,
    ...(outcome.result ? { result: outcome.result } : {}),
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    ...(outcome.paused ? { interrupts: outcome.paused } : {}),
    ...(budgetStop ? { budgetExceeded: budgetStop } : {}),
    ...(outcome.tripped ? { guardrail: outcome.tripped.trip } : {}),
    usage,
    ...(outcome.result ? { models: outcome.result.metrics.models } : {}),
    executionTimeMs: outcome.elapsedMs,
    executionCount,
  };
}
