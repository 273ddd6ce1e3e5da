import type { HandoffRequest, InvocationState, Message } from '@skein/core';
import type { HandoffRunSettings } from '@skein/handoffs';
import { applyTurn, type RunContext } from './apply-turn.js';
import { handoffDetails, handoffReason, turnSideFacts, type HandoffDetails } from './handoff-details.js';
import { transferLimit } from './limits.js';
import type { SwarmMembers } from './swarm-members.js';
import type { ResolvedSwarmOptions } from './swarm-options.js';
import type { SwarmRunState } from './swarm-state.js';
import type { TurnHandoff } from './swarm-turn.js';

/** What planning a transfer needs from the swarm. */
export interface TransferContext {
  state: SwarmRunState;
  run: RunContext;
  members: SwarmMembers;
  options: ResolvedSwarmOptions;
  settings: HandoffRunSettings;
  invocationState: InvocationState;
}

/** A transfer that may be made: the target, the run after it, and the handoff as a turn stores it. */
export interface PlannedTransfer {
  failure: undefined;
  to: string;
  run: RunContext;
  handoff: TurnHandoff;
  /** The transition's reason: the message the handing-off agent left (or the call), and what else its turn did. */
  reason: string;
  /** What the receiver was given (the transition's `details`). */
  details: HandoffDetails;
}

/**
 * Plans the transfer `from` asked for, changing nothing: checks that the target is a member, the
 * handoff budget and ping-pong detection, then applies the turn (shared context, filter, note).
 * Returns a failure reason instead of throwing.
 */
export async function planTransfer(
  ctx: TransferContext,
  from: string,
  request: HandoffRequest,
  newItems: readonly Message[],
): Promise<PlannedTransfer | { failure: string }> {
  const { state, members } = ctx;
  const to = members.idOf(request.target);
  if (to === undefined)
    return { failure: `${from} handed off to ${request.target.name}, which is not a member of the swarm.` };
  const limit = transferLimit(ctx.options, state.handoffCount, state.nodeHistory, from, to);
  if (limit) return { failure: limit };
  const applied = await applyTurn(
    ctx.run,
    {
      from,
      to,
      handoff: request.handoff,
      input: request.input,
      newItems,
      context: { agent: members.agent(from), invocationState: ctx.invocationState },
    },
    ctx.settings,
  );
  if (applied.failure !== undefined) return { failure: applied.failure };
  const handoff: TurnHandoff = {
    toolName: request.handoff.toolName,
    toolUseId: request.toolUseId,
    input: jsonInput(request.input),
    to,
  };
  const transfers = new Set(members.handoffs(from).map((h) => h.toolName));
  const { alsoRan, refused } = turnSideFacts(newItems, request.toolUseId, transfers);
  const reason = handoffReason(applied.message ?? `${from} called ${handoff.toolName}`, alsoRan, refused);
  const { message, historyBefore, historyAfter } = applied;
  const details = handoffDetails({
    message,
    sharedContext: applied.run.sharedContext,
    historyBefore,
    historyAfter,
    alsoRan,
    refused,
  });
  return { failure: undefined, to, run: applied.run, handoff, reason, details };
}

/** The handoff input as JSON (what a session stores and a replay reads back). */
function jsonInput(input: unknown): TurnHandoff['input'] {
  if (input === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(input)) as TurnHandoff['input'];
  } catch {
    return null;
  }
}
