/**
 * Starts, continues, resumes and cancels the runs of served tasks. Every change is stored (task
 * document, then index entry) before the run that follows it starts, so a restart finds it; input
 * that does not fit is refused before anything is stored.
 */
import type { Message, StreamResponse, Task } from '@a2a-js/sdk';
import type { AuthorizeAnswer, EventChannel, Interrupt, Principal, SessionManager } from '@skein/core';
import { partsToBlocks, textPart } from '../wire/parts.js';
import { isTerminal, isWaiting, newMessage, ROLE, STATE, STATE_NAME, statusEvent } from '../wire/protocol.js';
import type { ServerSdk } from '../wire/sdk.js';
import { answersOf } from './answers.js';
import { LiveTask } from './live-task.js';
import type { A2ATarget } from './options.js';
import { answerPrompt, putIndex, runTask, type RunStart } from './run-task.js';
import type { TaskDoc, TaskDocs, TaskIndex } from './task-store.js';

/** A run started, and (when asked) a subscription made before it could emit anything. */
export interface Started {
  live: LiveTask;
  queue: EventChannel<StreamResponse> | undefined;
}

export interface RunnerParts {
  build: (sm: SessionManager) => A2ATarget;
  docs: TaskDocs;
  index: TaskIndex;
  sdk: ServerSdk;
  /** Who may answer what a task asks (default: its owner). */
  authorizeAnswer?: AuthorizeAnswer | undefined;
}

/** Who sends a message: the principal's id (the tasks it owns) and the principal itself. */
export interface Caller {
  owner: string;
  principal: Principal;
}

export class TaskRunner {
  readonly live = new Map<string, LiveTask>();
  /** Tasks an answer is being stored for (not live yet). */
  readonly #claimed = new Set<string>();
  readonly #p: RunnerParts;

  constructor(parts: RunnerParts) {
    this.#p = parts;
  }

  #launch(live: LiveTask, sm: SessionManager, doc: TaskDoc, start: RunStart, subscribe: boolean): Started {
    this.live.set(live.id, live);
    const queue = subscribe ? live.subscribe() : undefined;
    void runTask(
      { live, sm, doc, build: this.#p.build, docs: this.#p.docs, index: this.#p.index, sdk: this.#p.sdk },
      start,
    ).finally(() => this.live.delete(live.id));
    return { live, queue };
  }

  /** Stores `doc` and the index entry through a fresh session manager (closed when the write fails). */
  async #store(live: LiveTask, doc: TaskDoc): Promise<SessionManager> {
    const sm = this.#p.docs.open(live.id);
    try {
      doc.task = this.#p.sdk.core.Task.toJSON(live.task) as TaskDoc['task'];
      await this.#p.docs.write(sm, doc);
      await putIndex({ live, index: this.#p.index, doc }, live.task.status?.state ?? STATE.working);
      return sm;
    } catch (error) {
      await sm.close?.();
      throw error;
    }
  }

  /** Starts a new task from a caller's message. */
  async start(owner: string, message: Message, traceparent: string | undefined, subscribe: boolean): Promise<Started> {
    const { errors } = this.#p.sdk;
    const content = partsToBlocks(message.parts);
    if (content.length === 0)
      throw new errors.RequestMalformedError('The message has no text, data or file part: there is nothing to do.');
    const id = crypto.randomUUID();
    const contextId = message.contextId || crypto.randomUUID();
    const task: Task = {
      id,
      contextId,
      status: { state: STATE.working, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [],
      history: [{ ...message, taskId: id, contextId }],
      metadata: undefined,
    };
    const live = new LiveTask(task, owner);
    const doc: TaskDoc = { version: 1, owner, createdAt: new Date().toISOString(), task: {} };
    if (traceparent) doc.traceparent = traceparent;
    const sm = await this.#store(live, doc);
    return this.#launch(live, sm, doc, { prompt: [{ role: 'user', content }] }, subscribe);
  }

  /** Continues a task that waits for the caller with the answers in `message`. */
  async answer(
    taskId: string,
    caller: Caller,
    message: Message,
    traceparent: string | undefined,
    subscribe: boolean,
  ): Promise<Started> {
    const { errors } = this.#p.sdk;
    if (this.live.has(taskId) || this.#claimed.has(taskId))
      throw new errors.UnsupportedOperationError(
        `Task ${taskId} is working; send the next message when it asks for input (input-required).`,
      );
    this.#claimed.add(taskId); // two answers racing: the second is refused, not run twice
    try {
      return await this.#answer(taskId, caller, message, traceparent, subscribe);
    } finally {
      this.#claimed.delete(taskId);
    }
  }

  async #answer(
    taskId: string,
    { owner, principal }: Caller,
    message: Message,
    traceparent: string | undefined,
    subscribe: boolean,
  ): Promise<Started> {
    const { errors, core } = this.#p.sdk;
    const doc = await this.#p.docs.read(taskId);
    if (!doc) throw new errors.TaskNotFoundError(`Task not found: ${taskId}`);
    const task = core.Task.fromJSON(doc.task);
    const state = task.status?.state;
    if (isTerminal(state))
      throw new errors.UnsupportedOperationError(
        `Task ${taskId} is finished (${STATE_NAME[state ?? 0]}) and takes no more messages.`,
      );
    if (!isWaiting(state) || !doc.interrupts)
      throw new errors.UnsupportedOperationError(
        `Task ${taskId} is working; it takes a message only when it asks for input.`,
      );
    if (message.contextId && message.contextId !== task.contextId)
      throw new errors.RequestMalformedError(
        `contextId mismatch: the message says ${message.contextId} but task ${taskId} belongs to ${task.contextId}.`,
      );
    await this.#checkAllowed(taskId, principal, doc.interrupts);
    const answers = answersOf(message.parts, doc.interrupts);
    if (!answers.ok) throw new errors.RequestMalformedError(answers.problem);
    task.history.push({ ...message, taskId, contextId: task.contextId });
    task.status = { state: STATE.working, message: undefined, timestamp: new Date().toISOString() };
    const live = new LiveTask(task, owner);
    delete doc.interrupts;
    doc.answers = answers.responses;
    if (traceparent) doc.traceparent = traceparent;
    const sm = await this.#store(live, doc);
    return this.#launch(live, sm, doc, { prompt: answerPrompt(answers.responses) }, subscribe);
  }

  /** Refuses (before anything is stored) a caller `authorizeAnswer` does not let answer what the task asks. */
  async #checkAllowed(taskId: string, principal: Principal, pending: readonly Interrupt[]): Promise<void> {
    const rule = this.#p.authorizeAnswer;
    if (!rule) return;
    for (const interrupt of pending) {
      if (await rule({ principal, interrupt, conversationId: taskId, door: 'a2a' })) continue;
      throw new this.#p.sdk.errors.UnsupportedOperationError(
        `Task ${taskId} asks ${interrupt.source} for ${interrupt.name} (${interrupt.id}), which this caller may not answer (authorizeAnswer); someone allowed to answer it must.`,
      );
    }
  }

  /** After a restart: resumes every task the index shows working. Returns how many. */
  async resumeAll(): Promise<number> {
    let resumed = 0;
    for (const [id, entry] of this.#p.index.entries()) {
      if (entry.state !== 'working' && entry.state !== 'submitted') continue;
      if (this.live.has(id)) continue;
      const doc = await this.#p.docs.read(id);
      if (!doc) continue;
      const task = this.#p.sdk.core.Task.fromJSON(doc.task);
      const live = new LiveTask(task, doc.owner);
      const state = task.status?.state;
      if (isTerminal(state) || isWaiting(state)) {
        await putIndex({ live, index: this.#p.index, doc }, state ?? STATE.failed); // the crash fell between document and index
        continue;
      }
      this.#launch(live, this.#p.docs.open(id), doc, { resume: true }, false);
      resumed++;
    }
    return resumed;
  }

  /** Cancels a task: a running one stops at its next safe point; a waiting one is closed. */
  async cancel(taskId: string): Promise<Task> {
    const { errors, core } = this.#p.sdk;
    const running = this.live.get(taskId);
    if (running) {
      running.cancelRequested = true;
      running.controller.abort(new Error(`Task ${taskId} was canceled by the caller.`));
      await running.ended;
      return running.snapshot();
    }
    const doc = await this.#p.docs.read(taskId);
    if (!doc) throw new errors.TaskNotFoundError(`Task not found: ${taskId}`);
    const task = core.Task.fromJSON(doc.task);
    const state = task.status?.state;
    if (state === STATE.canceled) return task;
    if (isTerminal(state))
      throw new errors.TaskNotCancelableError(`Task ${taskId} is finished and cannot be canceled.`);
    const live = new LiveTask(task, doc.owner);
    const message = newMessage(ROLE.agent, [textPart('The task was canceled.')], { taskId, contextId: task.contextId });
    live.applyStatus(statusEvent(taskId, task.contextId, STATE.canceled, message));
    delete doc.interrupts;
    const sm = await this.#store(live, doc);
    await sm.close?.();
    return live.snapshot();
  }

  /** Waits until every run in this process has stopped. */
  async settle(): Promise<void> {
    await Promise.all([...this.live.values()].map((l) => l.ended));
  }
}
