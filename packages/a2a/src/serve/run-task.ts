/**
 * One run of a served task: builds the target on the task's session, drives it (progress as status
 * updates), stores how it ended (task document, then index entry: the commit point) and only then
 * tells the subscribers. A run resumed after a restart finds its place from the session first.
 */
import type { StreamResponse, TaskState } from '@a2a-js/sdk';
import {
  emptyUsage,
  isAgent,
  messageText,
  type AgentResult,
  type InterruptResponse,
  type MultiAgentResult,
  type Prompt,
  type SessionManager,
  errorMessage,
} from '@skein/core';
import { partsToBlocks, textPart } from '../wire/parts.js';
import { newMessage, ROLE, STATE, STATE_NAME, statusEvent } from '../wire/protocol.js';
import type { ServerSdk } from '../wire/sdk.js';
import { withTraceparent } from '../wire/trace-context.js';
import { finalEvents, usageMetadata } from './final-events.js';
import type { LiveTask } from './live-task.js';
import type { A2ATarget } from './options.js';
import { outcomeOf, progressOf, type Outcome } from './outcome.js';
import type { TaskDoc, TaskDocs, TaskIndex } from './task-store.js';

/** What a run starts from: a prompt, or (after a restart) whatever the session says. */
export type RunStart = { prompt: Prompt } | { resume: true };

export interface RunParts {
  live: LiveTask;
  sm: SessionManager;
  build: (sm: SessionManager) => A2ATarget;
  doc: TaskDoc;
  docs: TaskDocs;
  index: TaskIndex;
  sdk: ServerSdk;
}

/** The prompt that answers interrupts. */
export function answerPrompt(answers: readonly InterruptResponse[]): Prompt {
  return answers.map((interruptResponse) => ({ interruptResponse }));
}

/** The prompt of the task's latest user message. */
function lastUserPrompt(parts: RunParts): Prompt {
  const history = parts.live.task.history;
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m?.role === ROLE.user) return [{ role: 'user', content: partsToBlocks(m.parts) }];
  }
  return [];
}

async function drive(
  target: A2ATarget,
  prompt: Prompt | undefined,
  live: LiveTask,
): Promise<AgentResult | MultiAgentResult> {
  const options = { signal: live.controller.signal };
  const gen = isAgent(target) ? target.stream(prompt, options) : target.stream(prompt ?? [], options);
  for (;;) {
    const step = await gen.next();
    if (step.done) return step.value;
    const p = progressOf(step.value);
    if (!p) continue;
    const { id, contextId } = live.task;
    const message = newMessage(ROLE.agent, [textPart(p.text)], { taskId: id, contextId });
    live.progress(statusEvent(id, contextId, STATE.working, message, { skein: p.details }));
  }
}

/** Where a target resumed after a restart stands: an outcome it already reached, or what to invoke it with. */
async function resumePoint(target: A2ATarget, parts: RunParts): Promise<Outcome | { prompt: Prompt | undefined }> {
  const answers = parts.doc.answers;
  if (isAgent(target)) {
    await target.initialize();
    if (target.interrupts.length > 0) return { prompt: answers ? answerPrompt(answers) : undefined };
    const last = target.messages[target.messages.length - 1];
    if (!last) return { prompt: lastUserPrompt(parts) };
    const asksTools = last.content.some((b) => 'toolUse' in b);
    if (last.role === 'assistant' && !asksTools)
      return { kind: 'completed', text: messageText(last), usage: emptyUsage() };
    return { prompt: undefined };
  }
  const lastResult = (target as { lastResult?: () => Promise<MultiAgentResult | undefined> }).lastResult;
  const finished = typeof lastResult === 'function' ? await lastResult.call(target) : undefined;
  if (finished) return outcomeOf(finished, false);
  return { prompt: answers ? answerPrompt(answers) : lastUserPrompt(parts) };
}

/** Stores the outcome (document, then index), then tells the subscribers. */
async function finish(parts: RunParts, outcome: Outcome): Promise<void> {
  const { live, doc } = parts;
  const events: StreamResponse[] = finalEvents(live.task.id, live.task.contextId, outcome);
  for (const e of events) {
    const p = e.payload;
    if (p?.$case === 'statusUpdate') live.applyStatus(p.value);
    else if (p?.$case === 'artifactUpdate') live.applyArtifact(p.value);
  }
  live.task.metadata = { ...live.task.metadata, ...usageMetadata(outcome) };
  live.interrupts = outcome.kind === 'waiting' ? outcome.interrupts : undefined;
  doc.task = parts.sdk.core.Task.toJSON(live.task) as TaskDoc['task'];
  if (live.interrupts) doc.interrupts = live.interrupts;
  else delete doc.interrupts;
  delete doc.answers;
  const state = live.task.status?.state ?? STATE.failed;
  try {
    await parts.docs.write(parts.sm, doc);
    await putIndex(parts, state);
  } catch (error) {
    console.error(`[a2a] could not store how task ${live.id} ended; it resumes after a restart:`, error);
  }
  for (const e of events) live.notify(e);
}

/** Writes the task's index entry with its current state. */
export async function putIndex(parts: Pick<RunParts, 'live' | 'index' | 'doc'>, state: TaskState): Promise<void> {
  await parts.index.put(parts.live.id, {
    owner: parts.doc.owner,
    contextId: parts.live.task.contextId,
    state: STATE_NAME[state] ?? 'failed',
    createdAt: parts.doc.createdAt,
    updatedAt: new Date().toISOString(),
  });
}

/** Runs the task to its end or its next question; never throws (a failure is the task's `failed` state). */
export async function runTask(parts: RunParts, start: RunStart): Promise<void> {
  const { live } = parts;
  try {
    const outcome = await withTraceparent(parts.doc.traceparent, async (): Promise<Outcome> => {
      const target = parts.build(parts.sm);
      let prompt: Prompt | undefined;
      if ('resume' in start) {
        const point = await resumePoint(target, parts);
        if ('kind' in point) return point;
        prompt = point.prompt;
      } else prompt = start.prompt;
      return outcomeOf(await drive(target, prompt, live), live.cancelRequested);
    });
    await finish(parts, outcome);
  } catch (error) {
    const reason = errorMessage(error);
    const usage = emptyUsage();
    await finish(
      parts,
      live.cancelRequested ? { kind: 'canceled', text: '', usage } : { kind: 'failed', reason, usage },
    );
  } finally {
    await parts.sm.close?.();
    live.finish();
  }
}
