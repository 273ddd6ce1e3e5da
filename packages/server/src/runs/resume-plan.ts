/**
 * What to do with a turn whose process stopped (a crash, SIGKILL, SIGTERM) when a client comes back:
 * run it (nothing of it was stored), go on with it (part of it was), or only report it (it had
 * finished or paused, and only the server's record had not been written). Never run a finished turn again.
 */
import { messageText, type Interrupt, type JsonValue, type Prompt, type SessionRepository } from '@skein/core';
import type { CurrentTurn } from '../store/conversation-record.js';
import { promptOfTurn } from './prompt.js';
import { standing, type Target } from './target.js';
import { turnResultOf, type TurnResult } from './turn-result.js';

/** Run the target with `prompt`, or record `result` without running anything. */
export type ResumePlan =
  | { action: 'run'; prompt: Prompt | undefined }
  | { action: 'report'; result: Omit<TurnResult, 'conversationId' | 'turn'> };

const same = (a: JsonValue, b: JsonValue): boolean => JSON.stringify(a) === JSON.stringify(b);

function answersFit(turn: CurrentTurn, pending: readonly Interrupt[]): boolean {
  if (turn.prompt.kind !== 'answers') return false;
  const ids = Object.keys(turn.prompt.answers);
  return pending.length > 0 && pending.every((i) => ids.includes(i.id));
}

function paused(pending: Interrupt[]): ResumePlan {
  return { action: 'report', result: { status: 'interrupted', text: '', interrupts: pending } };
}

/** Decides how to resume `turn` of a conversation whose target is `target`. */
export async function planResume(
  target: Target,
  turn: CurrentTurn,
  repo: SessionRepository,
  sessionId: string,
): Promise<ResumePlan> {
  const prompt = promptOfTurn(turn.prompt);
  if (same(await standing(target, repo, sessionId), turn.before)) return { action: 'run', prompt };
  if (target.kind === 'agent') {
    const agent = target.agent;
    const pending = [...agent.interrupts];
    if (pending.length > 0) return answersFit(turn, pending) ? { action: 'run', prompt } : paused(pending);
    const last = agent.messages[agent.messages.length - 1];
    if (last?.role === 'user') return { action: 'run', prompt: undefined };
    return { action: 'report', result: { status: 'completed', text: messageText(last), interrupts: [] } };
  }
  const multi = target.multi;
  const finished = await multi.lastResult?.();
  if (finished) {
    const { conversationId: _c, turn: _t, ...result } = turnResultOf('', 0, finished, undefined);
    return { action: 'report', result };
  }
  const pending = (await multi.pendingInterrupts?.()) ?? [];
  if (pending.length > 0) return answersFit(turn, pending) ? { action: 'run', prompt } : paused(pending);
  // An unfinished run: a plain task resumes it (the orchestrator keeps its stored task).
  return { action: 'run', prompt: turn.prompt.kind === 'message' ? prompt : 'resume' };
}
