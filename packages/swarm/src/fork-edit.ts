/** How a swarm fork's checked edit changes the snapshot it starts from: its committed turns, results, task and next member. */
import {
  ConfigurationError,
  editedMessage,
  withToolResult,
  type JsonObject,
  type Message,
  type ForkEdits,
  type StepSnapshot,
} from '@skein/core';
import type { SwarmMembers } from './swarm-members.js';
import { storedAt } from './stored-run.js';
import { encodeState } from './swarm-state.js';
import { committedTurns, encodeTask, encodeTurn, turnEntryId, type SwarmTurn } from './swarm-turn.js';

/**
 * What a swarm fork changes before it continues (every field optional), by member name. Member
 * messages, tool results, agent states (after a member's latest turn) and shared context are edited
 * in the committed turns the run is rebuilt from; `next` makes the run continue at another member.
 */
export interface SwarmForkEdit extends ForkEdits {
  /** Replace the context a member's latest handoff carried into the shared context. */
  sharedContext?: Record<string, JsonObject>;
  /** Replace the run's task. */
  task?: string | Message[];
  /** The member that runs next (a pending handoff or pause is dropped; the run continues there). */
  next?: string;
}

/** Applies `edit` to the snapshot the fork starts from (turn entries, result entries, the state); returns what changed, in words. */
export function applySwarmEdit(snapshot: StepSnapshot, edit: SwarmForkEdit, members: SwarmMembers): string[] {
  const done: string[] = [];
  const { state } = storedAt(snapshot, members);
  editTurns(snapshot, edit, committedTurns(snapshot.nodes, state.turns), done);
  for (const [member, text] of Object.entries(edit.results ?? {})) {
    const key = members.key(member);
    const entry = snapshot.nodes[key];
    if (!entry)
      throw new ConfigurationError(`fork({ edit }): results: ${member} has no result at step ${snapshot.step}.`);
    snapshot.nodes[key] = { ...entry, text };
    done.push(`result of ${member} replaced`);
  }
  if (edit.task !== undefined) {
    const task: Message[] =
      typeof edit.task === 'string' ? [{ role: 'user', content: [{ text: edit.task }] }] : edit.task;
    snapshot.nodes['run.task'] = encodeTask(task);
    done.push('task replaced');
  }
  if (edit.next !== undefined) {
    Object.assign(state, { current: edit.next, pendingHandoff: undefined, pause: undefined, answers: undefined });
    state.status = 'executing';
    state.failureReason = undefined;
    const envelope = Object.fromEntries(
      ['transitionCount', 'lastTransitions', 'runNumber', 'step'].map((k) => [k, snapshot.state[k] ?? null]),
    );
    snapshot.state = { ...encodeState(state), ...envelope };
    done.push(`next: ${edit.next}`);
  }
  return done;
}

/** The edits of the committed turns (a member's last message, tool results, shared context, agent state), stored back as turn entries. */
function editTurns(snapshot: StepSnapshot, edit: SwarmForkEdit, turns: SwarmTurn[], done: string[]): void {
  const latest = (member: string, where: string, withHandoff = false): SwarmTurn => {
    const turn = turns.findLast((t) => t.node === member && (!withHandoff || t.handoff));
    if (!turn)
      throw new ConfigurationError(
        `fork({ edit }): ${where}: ${member} had no ${withHandoff ? 'handoff' : 'turn'} by step ${snapshot.step}.`,
      );
    return turn;
  };
  const changed = new Set<SwarmTurn>();
  for (const [member, message] of Object.entries(edit.lastMessage ?? {})) {
    const turn = latest(member, 'lastMessage');
    const last = turn.newItems.at(-1);
    if (!last) throw new ConfigurationError(`fork({ edit }): lastMessage: ${member}'s latest turn added no message.`);
    turn.newItems[turn.newItems.length - 1] = editedMessage(last, message);
    changed.add(turn);
    done.push(`last message of ${member} replaced`);
  }
  for (const [toolUseId, content] of Object.entries(edit.toolResults ?? {})) {
    const turn = turns.find((t) => replaceToolResult(t.newItems, toolUseId, content));
    if (!turn)
      throw new ConfigurationError(
        `fork({ edit }): no tool result ${toolUseId} in the turns by step ${snapshot.step}.`,
      );
    changed.add(turn);
    done.push(`tool result ${toolUseId} replaced`);
  }
  for (const [member, context] of Object.entries(edit.sharedContext ?? {})) {
    const turn = latest(member, 'sharedContext', true);
    const input = (turn.handoff?.input ?? {}) as JsonObject;
    if (turn.handoff) turn.handoff = { ...turn.handoff, input: { ...input, context } };
    changed.add(turn);
    done.push(`shared context of ${member} replaced`);
  }
  for (const [member, value] of Object.entries(edit.agentState ?? {})) {
    latest(member, 'agentState').state = value;
    changed.add(latest(member, 'agentState'));
    done.push(`agent state of ${member} replaced`);
  }
  for (const turn of changed) snapshot.nodes[turnEntryId(turn.seq)] = encodeTurn(turn);
}

/** Replaces tool result `toolUseId` in the first of `items` that holds it; false when none does. */
function replaceToolResult(
  items: Message[],
  toolUseId: string,
  content: Parameters<typeof withToolResult>[2],
): boolean {
  for (const [i, m] of items.entries()) {
    const message = withToolResult(m, toolUseId, content);
    if (!message) continue;
    items[i] = message;
    return true;
  }
  return false;
}
