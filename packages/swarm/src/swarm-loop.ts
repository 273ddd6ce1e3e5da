import {
  budgetStopOf,
  guardrailsForNode,
  depthOf,
  withinDepth,
  type InvocationGuardrails,
  type Principal,
  pauseTransition,
  type BudgetScope,
  type InvocationState,
  type MemoryTarget,
  type MultiAgentEventData,
  type HandoffRequest,
} from '@skein/core';
import { runActiveNode, type ActiveNodeHost, type ActiveOutcome } from './active-node.js';
import { budgetTransition } from './budget-stop.js';
import { beforeNodeLimit } from './limits.js';
import type { MemberClock } from './member-clock.js';

import type { SwarmParts, SwarmRun } from './swarm-run.js';
import type { SwarmRunState } from './swarm-state.js';
import type { SwarmTurn } from './swarm-turn.js';
import type { SwarmEmit } from './swarm-event.js';
import { planTransfer } from './transfer.js';

/** One invocation of a run: its caller's values and signal, and clocks over the run's and its turns' time. */
export interface SwarmInvocation {
  invocationState: InvocationState;
  /** The member turns' time limits, with the caller's signal. */
  clock: MemberClock;
  /** True when nobody reads the members' own events (see `NodeRun.quiet`). */
  quiet: boolean;
  /** Time spent on the run so far, earlier processes included, in ms. */
  elapsed(): number;
  /** Where the run's events go. */
  emit: SwarmEmit;
  /** The guardrails an enclosing run handed this one (and its path), and who asked. */
  guardrails?: InvocationGuardrails | undefined;
  principal?: Principal | undefined;
  /** Whose long-term memory the members read (`undefined`: none). */
  memory?: MemoryTarget | undefined;
  /** How deep nested runs' events reach the stream (`MultiAgentInvokeOptions.depth`). */
  depth?: number | undefined;
}

const REFUSED = Symbol('refused');

/**
 * The swarm's loop: before each node the limits and the budget are checked, the active node runs,
 * and its outcome either ends the invocation (an answer, a pause, a stop, a failure) or transfers to
 * the next member, whose transfer is committed before it runs.
 */
export async function runSwarmLoop(
  run: SwarmRun,
  parts: SwarmParts,
  state: SwarmRunState,
  inv: SwarmInvocation,
): Promise<void> {
  for (;;) {
    const limit = beforeNodeLimit(parts.options, state.nodeHistory.length, inv.elapsed(), state.current);
    if (limit) return run.fail(state, limit, state.current, inv.emit);
    const budget = await startNode(run, parts, state, inv.emit);
    if (budget === REFUSED) return;
    const host = activeHost(run, parts, inv, budget, state.current);
    const outcome = await runActiveNode(host, state, inv.invocationState, inv.clock, inv.emit);
    if (!(await afterNode(run, parts, state, outcome, inv))) return;
  }
}

/** The node's place in the budget (`undefined`: no budget), or REFUSED when a limit stops the run before it. */
async function startNode(
  run: SwarmRun,
  parts: SwarmParts,
  state: SwarmRunState,
  emit: SwarmEmit,
): Promise<BudgetScope | undefined | typeof REFUSED> {
  const budget = run.budget;
  if (!budget) return undefined;
  const warnings: MultiAgentEventData[] = [];
  // A member a stop left mid-turn goes on: its execution was counted when it started.
  const continues = state.pause?.node === state.current && state.pause.stage === 'stopped';
  const scope = await budget.startNode(state.current, parts.hooks, (e) => void warnings.push(e), continues);
  for (const warning of warnings) await emit(warning);
  if (scope) return scope;
  state.status = 'budgetExceeded'; // not finished: the next invoke resumes at this node
  parts.log.journal.stage(budgetTransition(state.current, budget));
  return REFUSED;
}

function activeHost(
  run: SwarmRun,
  parts: SwarmParts,
  inv: SwarmInvocation,
  budget: BudgetScope | undefined,
  nodeId: string,
): ActiveNodeHost {
  const guardrails = guardrailsForNode(parts.guardrails, inv.guardrails, nodeId);
  return {
    swarm: parts.swarm,
    hooks: parts.hooks,
    members: parts.members,
    options: parts.options,
    log: parts.log,
    context: run.context,
    results: run.results,
    elapsed: inv.elapsed,
    initialState: (id) => run.initialState(id),
    budget,
    // A member deeper than the stream reaches runs through invoke(): it makes no events.
    quiet: inv.quiet || !withinDepth(depthOf(guardrails.path ?? nodeId), inv.depth),
    starting: run.starting,
    guardrails,
    principal: inv.principal,
    memory: inv.memory,
    depth: inv.depth,
  };
}

/** What a node's outcome does to the run; `true` when the loop goes on with the next member. */
async function afterNode(
  run: SwarmRun,
  parts: SwarmParts,
  state: SwarmRunState,
  outcome: ActiveOutcome,
  inv: SwarmInvocation,
): Promise<boolean> {
  const nodeId = state.current;
  if (outcome.paused || outcome.interrupted) {
    state.status = 'interrupted';
    if (outcome.paused && state.pause)
      parts.log.journal.stage(pauseTransition(state.pause.node, state.pause.stage, state.pause.interrupts));
    return false;
  }
  if (outcome.error !== undefined)
    return (await run.fail(state, outcome.error, nodeId, inv.emit, outcome.tripped), false);
  if (budgetStopOf(outcome.result)) {
    run.budget?.nodeStopped(outcome.result);
    state.status = 'budgetExceeded'; // its turn so far is kept in `pause`: the next invoke goes on from there
    if (run.budget) parts.log.journal.stage(budgetTransition(nodeId, run.budget));
    return false;
  }
  const turn: SwarmTurn = {
    seq: state.turns,
    node: nodeId,
    newItems: outcome.newItems,
    handoff: undefined,
    state: parts.members.agent(nodeId).state.get(),
  };
  state.pause = undefined;
  state.answers = undefined;
  const request = outcome.result?.handoff;
  if (request) return handOff(run, parts, state, turn, request, inv);
  run.commitTurn(state, turn);
  state.status = 'completed';
  state.pendingHandoff = undefined;
  parts.log.journal.stage({
    from: nodeId,
    to: null,
    kind: 'complete',
    reason: 'answered without a handoff',
  });
  return false;
}

/** Transfers to the member the turn asked for; the turn entry, then the transfer in memory, then the state that commits both. */
async function handOff(
  run: SwarmRun,
  parts: SwarmParts,
  state: SwarmRunState,
  turn: SwarmTurn,
  request: HandoffRequest,
  inv: SwarmInvocation,
): Promise<boolean> {
  const nodeId = turn.node;
  const { members, options, settings } = parts;
  const ctx = {
    state,
    run: run.context,
    members,
    options,
    settings,
    invocationState: inv.invocationState,
  };
  const plan = await planTransfer(ctx, nodeId, request, turn.newItems);
  if (plan.failure !== undefined) return (await run.fail(state, plan.failure, nodeId, inv.emit), false);
  run.commitTurn(state, { ...turn, handoff: plan.handoff });
  run.context = plan.run;
  const { toolName, toolUseId, input, to } = plan.handoff;
  state.pendingHandoff = { from: nodeId, to, toolName, toolUseId, input };
  state.handoffCount++;
  state.current = to;
  parts.log.journal.stage({
    from: nodeId,
    to,
    kind: 'handoff',
    reason: plan.reason,
    details: plan.details,
  });
  state.elapsedMs = inv.elapsed();
  await run.commit(state, inv.emit);
  return true;
}
