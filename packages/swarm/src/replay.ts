import { MultiAgentError, type InvocationState, type JsonObject, type Message } from '@skein/core';
import type { HandoffRunSettings } from '@skein/handoffs';
import { applyTurn, type RunContext } from './apply-turn.js';
import { startingMessages } from './starting-history.js';
import type { SwarmMembers } from './swarm-members.js';
import { swarmResult, type SwarmResult } from './swarm-result.js';
import type { SwarmLog } from './swarm-log.js';
import type { SwarmConversation, SwarmTurn } from './swarm-turn.js';

/** A member as it was at the end of its latest committed turn. */
interface MemberSnapshot {
  messages: Message[];
  state: JsonObject;
}

/** The run rebuilt from its task and committed turns. */
export interface Replayed {
  run: RunContext;
  /** Members that finished a turn, as they were after their latest one. */
  members: Map<string, MemberSnapshot>;
}

function fail(seq: number, what: string): never {
  throw new MultiAgentError(
    `The stored swarm run cannot be replayed at turn ${seq}: ${what}. Resume with the same members, or clear the session.`,
  );
}

/**
 * Rebuilds the conversation and shared context of a run by applying its committed turns to the
 * task, in order, exactly as the live run did (each turn's handoff is found by tool name among the
 * handoffs its member is offered). Also returns each member's history and state after its latest turn.
 */
export async function replayTurns(
  task: Message[],
  turns: readonly SwarmTurn[],
  members: SwarmMembers,
  settings: HandoffRunSettings,
  invocationState: InvocationState,
): Promise<Replayed> {
  let run: RunContext = { conversation: { inputHistory: task, items: [] }, sharedContext: {} };
  const latest = new Map<string, { before: SwarmConversation; turn: SwarmTurn }>();
  for (const turn of turns) {
    if (!members.has(turn.node)) fail(turn.seq, `${JSON.stringify(turn.node)} is not a member of this swarm`);
    latest.set(turn.node, { before: run.conversation, turn });
    const stored = turn.handoff;
    if (!stored) continue;
    const handoff = members.handoffs(turn.node).find((h) => h.toolName === stored.toolName);
    if (!handoff || members.idOf(handoff.agent) !== stored.to)
      fail(turn.seq, `${turn.node} is not offered ${stored.toolName} to ${stored.to}`);
    const context = { agent: members.agent(turn.node), invocationState };
    const applied = await applyTurn(
      run,
      { from: turn.node, to: stored.to, handoff, input: stored.input, newItems: turn.newItems, context },
      settings,
    );
    if (applied.failure !== undefined) fail(turn.seq, applied.failure);
    run = applied.run;
  }
  const snapshots = new Map<string, MemberSnapshot>();
  for (const [node, { before, turn }] of latest) {
    snapshots.set(node, {
      messages: [...startingMessages(before.inputHistory, before.items), ...turn.newItems],
      state: turn.state,
    });
  }
  return { run, members: snapshots };
}

/** The result of the finished run stored in the session (`undefined`: none), its shared context rebuilt by replaying its turns (no model is called). */
export async function replayedResult(
  log: SwarmLog,
  members: SwarmMembers,
  settings: HandoffRunSettings,
): Promise<SwarmResult | undefined> {
  const stored = await log.finished(members);
  if (!stored) return undefined;
  const replayed = await replayTurns(stored.task, stored.turns, members, settings, {});
  return swarmResult(stored.state, stored.results, stored.transitions, replayed.run.sharedContext);
}
