import {
  ConfigurationError,
  forkSession,
  Recording,
  recordingOf,
  type ForkOrigin,
  type JsonObject,
  type Message,
  type OrchestratorHistory,
  type SessionRepository,
  type StepSnapshot,
  type ToolResultContent,
} from '@skein/core';
import { checkSwarmEdit, type SwarmForkEdit } from './swarm-fork-check.js';
import { storedAt } from './swarm-history.js';
import type { SwarmMembers } from './swarm-members.js';
import { encodeState } from './swarm-state.js';
import { committedTurns, encodeTask, encodeTurn, turnEntryId, type SwarmTurn } from './swarm-turn.js';

/** What `swarm.fork()` takes. */
export interface SwarmForkOptions {
  /** The committed step to continue from (see `swarm.history()`). */
  step: number;
  /** The new session's id, in the same store (it must not exist). */
  to: string;
  /** Changes to make before the fork continues (validated; the original session is never written). */
  edit?: SwarmForkEdit;
}

/** A fork made by `swarm.fork()`. */
export interface SwarmFork {
  /** The new session: build the swarm with a session manager for it and invoke it to continue. */
  sessionId: string;
  step: number;
  forkedFrom: ForkOrigin;
  /** What the original run did after the step: replay with `recording.model(member)` and `recording.guard(swarm.nodes)`. */
  recording: Recording;
}

/** Where the swarm's history is and what it is made of. */
export interface SwarmForkHost {
  history: OrchestratorHistory;
  repository: SessionRepository;
  sessionId: string;
  swarmId: string;
  members: SwarmMembers;
}

/** Forks the swarm's run at `options.step` into a new session of the same store (see `Swarm.fork`). */
export async function forkSwarm(host: SwarmForkHost, options: SwarmForkOptions): Promise<SwarmFork> {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('fork() takes { step, to, edit? }.');
  const edit = checkSwarmEdit(options.edit, host.members);
  const recording = new Recording(await recordingAfter(host, options.step));
  const fork = await forkSession(host.repository, {
    sessionId: host.sessionId,
    orchestratorId: host.swarmId,
    step: options.step,
    to: options.to,
    edit: (snapshot) => applyEdit(snapshot, edit, host.members),
    entries: recording.toEntries(),
  });
  return { sessionId: fork.sessionId, step: fork.step, forkedFrom: fork.forkedFrom, recording };
}

/** What the members did after `step`: the messages of the turns committed later in the run (less what a paused turn had made). */
async function recordingAfter(host: SwarmForkHost, step: number) {
  const run = (await host.history.runs()).find((r) => r.firstStep <= step && step <= r.lastStep);
  if (!run || run.lastStep === step) return { outputs: {}, toolResults: {} };
  const [from, to] = await Promise.all([host.history.at(step), host.history.at(run.lastStep)]);
  const then = storedAt(from, host.members).state;
  const later = storedAt(to, host.members).turns.filter((t) => t.seq >= then.turns);
  return recordingOf(
    later.map((turn) => {
      const pause = then.pause;
      if (turn.seq !== then.turns || pause?.node !== turn.node) return [turn.node, turn.newItems] as const;
      // The paused turn had made these model calls before it waited.
      const made = pause.items.filter((m) => m.role === 'assistant').length + (pause.interruptState ? 1 : 0);
      let skipped = 0;
      return [turn.node, turn.newItems.filter((m) => m.role !== 'assistant' || ++skipped > made)] as const;
    }),
  );
}

/** Applies `edit` to the snapshot the fork starts from (turn entries, result entries, the state); returns what changed, in words. */
function applyEdit(snapshot: StepSnapshot, edit: SwarmForkEdit, members: SwarmMembers): string[] {
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
    turn.newItems[turn.newItems.length - 1] =
      typeof message === 'string' ? { role: last.role, content: [{ text: message }] } : (message as Message);
    changed.add(turn);
    done.push(`last message of ${member} replaced`);
  }
  for (const [toolUseId, content] of Object.entries(edit.toolResults ?? {})) {
    const blocks: ToolResultContent[] = typeof content === 'string' ? [{ text: content }] : content;
    const turn = turns.find((t) => replaceToolResult(t.newItems, toolUseId, blocks));
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

function replaceToolResult(items: Message[], toolUseId: string, content: ToolResultContent[]): boolean {
  for (const [i, m] of items.entries()) {
    const at = m.content.findIndex((b) => 'toolResult' in b && b.toolResult.toolUseId === toolUseId);
    if (at < 0) continue;
    const blocks = [...m.content];
    const block = blocks[at] as { toolResult: { toolUseId: string; status: 'success' | 'error' } };
    blocks[at] = { toolResult: { ...block.toolResult, content } };
    items[i] = { ...m, content: blocks };
    return true;
  }
  return false;
}
