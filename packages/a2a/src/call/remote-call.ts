/**
 * One call to a remote agent, driven from its stored record: send the message (or find the task it
 * started, when a crash or a fault left that unknown), follow the task (streaming when the card says
 * so, else GetTask), ask the caller when the task asks, send the answer, and record each step before
 * the next one talks to the remote agent. A retry after a transient fault and a resume after a crash
 * run the same code: a task whose id is known is never started again.
 */
import type { Message, Part, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { ModelTransientError, type JsonObject, type JsonValue, type RetryStrategy } from '@skein/core';
import { RemoteAgentError, type RemoteFailure } from '../errors.js';
import { textPart } from '../wire/parts.js';
import { isTerminal, isWaiting, ROLE, STATE, STATE_NAME } from '../wire/protocol.js';
import type { CallRecord, CallStore } from './call-store.js';
import type { Connected, Connection } from './connection.js';
import { classify, StreamCutError } from './faults.js';
import { answerParts, answerText, interruptFor, messageText, questionOfTask, usageOf } from './task-reading.js';

/** What one call needs from its caller. */
export interface CallRequest {
  /** The record's key (a tool use id): the same key after a crash finds the same remote task. */
  key: string;
  /** The message to send when the call is new. */
  text: string;
  signal: AbortSignal;
  /** Asks the caller (a skein interrupt); returns the answer once the caller resumed with one. */
  ask: (name: string, reason: JsonValue) => JsonValue;
}

/** The remote agent's answer. */
export interface CallAnswer {
  text: string;
  taskId: string | undefined;
  usage: CallRecord['usage'] | undefined;
}

export interface CallerOptions {
  retry: RetryStrategy | null;
  timeoutMs: number;
  pollIntervalMs: number;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = (): void => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });

function userMessage(rec: CallRecord, messageId: string, parts: Part[], taskId?: string): Message {
  return {
    messageId,
    contextId: rec.contextId,
    taskId: taskId ?? '',
    role: ROLE.user,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export class RemoteCaller {
  readonly #conn: Connection;
  readonly #store: CallStore;
  readonly #o: CallerOptions;

  constructor(conn: Connection, store: CallStore, options: CallerOptions) {
    this.#conn = conn;
    this.#store = store;
    this.#o = options;
  }

  #error(
    message: string,
    failure: RemoteFailure,
    rec: CallRecord | undefined,
    extra: { cause?: unknown; a2aCode?: number } = {},
  ): RemoteAgentError {
    return new RemoteAgentError(message, {
      agent: this.#conn.name,
      url: this.#conn.url,
      taskId: rec?.taskId,
      failure,
      ...extra,
    });
  }

  /** Runs the call to its answer; throws `RemoteAgentError`, or the caller's interrupt. */
  async call(req: CallRequest): Promise<CallAnswer> {
    const timeout = AbortSignal.timeout(this.#o.timeoutMs);
    const signal = AbortSignal.any([req.signal, timeout]);
    let rec: CallRecord | undefined;
    let lookup = false;
    for (let attempt = 1; ; attempt++) {
      try {
        const connected = await this.#conn.connect(); // a card that cannot be used fails here, before anything is read or stored
        if (!rec) {
          rec = await this.#store.get(req.key);
          lookup = rec?.state === 'sending'; // a message sent before a crash may have started a task
        }
        if (!rec) {
          rec = {
            version: 1,
            contextId: crypto.randomUUID(),
            messageId: crypto.randomUUID(),
            state: 'sending',
            round: 0,
          };
          await this.#store.put(req.key, rec);
        }
        return await this.#advance(req, rec, connected, signal, lookup);
      } catch (error) {
        if (error instanceof RemoteAgentError || isInterrupt(error)) throw error;
        if (timeout.aborted)
          throw this.#error(`no answer within ${this.#o.timeoutMs} ms`, 'timeout', rec, { cause: error });
        if (req.signal.aborted) throw req.signal.reason ?? error;
        const fault = classify(error);
        const delay =
          fault.transient && this.#o.retry
            ? this.#o.retry.nextDelay(new ModelTransientError(fault.message), attempt)
            : undefined;
        if (delay === undefined) {
          const tries = attempt > 1 ? ` (after ${attempt} attempts)` : '';
          throw this.#error(`${fault.message}${tries}`, fault.failure, rec, {
            cause: error,
            ...(fault.a2aCode !== undefined ? { a2aCode: fault.a2aCode } : {}),
          });
        }
        await sleep(delay, signal).catch(() => undefined);
        lookup = rec?.state === 'sending';
      }
    }
  }

  async #put(key: string, rec: CallRecord): Promise<void> {
    await this.#store.put(key, rec);
  }

  async #advance(
    req: CallRequest,
    rec: CallRecord,
    connected: Connected,
    signal: AbortSignal,
    lookup: boolean,
  ): Promise<CallAnswer> {
    const { client, streaming } = connected;
    for (;;) {
      switch (rec.state) {
        case 'completed':
          return { text: rec.text ?? '', taskId: rec.taskId, usage: rec.usage };
        case 'failed':
          throw this.#error(rec.error ?? 'its task failed', 'task_failed', rec);
        case 'asking': {
          const question = rec.question ?? { text: '', interrupts: [] };
          const remote: JsonObject = { agent: this.#conn.name, url: this.#conn.url, taskId: rec.taskId ?? null };
          const { name, reason } = interruptFor(question, rec.round, remote);
          const response = req.ask(name, reason);
          rec.answer = { messageId: crypto.randomUUID(), response, interrupts: question.interrupts };
          rec.state = 'answering';
          await this.#put(req.key, rec);
          break;
        }
        case 'answering':
          await this.#answer(req.key, rec, client, streaming, signal);
          break;
        case 'sending': {
          if (lookup && (await this.#find(req.key, rec, client, signal))) break;
          const message = userMessage(rec, rec.messageId, [textPart(req.text)]);
          await this.#send(req.key, rec, client, streaming, message, signal);
          lookup = true;
          break;
        }
        case 'working':
          await this.#follow(req.key, rec, client, streaming, signal);
          break;
      }
    }
  }

  /** Sends a message (the first one, or an answer) and follows the task to its next stop. */
  async #send(
    key: string,
    rec: CallRecord,
    client: Client,
    streaming: boolean,
    message: Message,
    signal: AbortSignal,
  ): Promise<void> {
    const params = { tenant: '', message, configuration: undefined, metadata: undefined };
    if (streaming) return this.#consume(key, rec, client.sendMessageStream(params, { signal }), 'the message stream');
    const result = await client.sendMessage(params, { signal });
    if ('messageId' in result) {
      Object.assign(rec, { state: 'completed', text: messageText(result) });
      return this.#put(key, rec);
    }
    await this.#learnTask(key, rec, result);
    if (!(await this.#settle(key, rec, result))) await this.#follow(key, rec, client, false, signal);
  }

  async #answer(key: string, rec: CallRecord, client: Client, streaming: boolean, signal: AbortSignal): Promise<void> {
    const answer = rec.answer;
    if (!answer || !rec.taskId)
      throw this.#error('an answer was to be sent to a task that is not known', 'bad_response', rec);
    const parts = answerParts(answer.response, answer.interrupts);
    if (!parts)
      throw this.#error(
        `it asked ${answer.interrupts.length} questions; answer with an object mapping each id (${answer.interrupts.map((i) => (i as { id?: string }).id).join(', ')}) to its answer`,
        'bad_answer',
        rec,
      );
    try {
      await this.#send(key, rec, client, streaming, userMessage(rec, answer.messageId, parts, rec.taskId), signal);
    } catch (error) {
      if (classify(error).a2aCode !== -32004) throw error;
      rec.state = 'working'; // the answer arrived before (a crash cut the call after it): follow the task instead
      await this.#put(key, rec);
    }
  }

  /** Finds the task a message whose fate is unknown started (its context is this call's own). */
  async #find(key: string, rec: CallRecord, client: Client, signal: AbortSignal): Promise<boolean> {
    let tasks: Task[];
    try {
      const found = await client.listTasks(
        {
          tenant: '',
          contextId: rec.contextId,
          status: 0 as TaskState,
          pageToken: '',
          statusTimestampAfter: undefined,
        },
        { signal },
      );
      tasks = found.tasks;
    } catch (error) {
      if (classify(error).transient) throw error;
      return false; // no ListTasks (an A2A 0.3 agent): the message is sent again
    }
    const task = tasks.find((t) => t.history.some((m) => m.messageId === rec.messageId)) ?? tasks[0];
    if (!task) return false;
    await this.#learnTask(key, rec, task);
    return true;
  }

  async #learnTask(key: string, rec: CallRecord, task: Pick<Task, 'id'>): Promise<void> {
    if (rec.taskId === task.id && rec.state === 'working') return;
    rec.taskId = task.id;
    rec.state = 'working';
    await this.#put(key, rec);
  }

  /** Follows a known task to its next stop: GetTask, then SubscribeToTask (streaming) or GetTask polling. */
  async #follow(key: string, rec: CallRecord, client: Client, streaming: boolean, signal: AbortSignal): Promise<void> {
    const id = rec.taskId;
    if (!id) throw this.#error('there is no task to follow', 'bad_response', rec);
    for (;;) {
      const task = await client.getTask({ tenant: '', id, historyLength: 0 }, { signal });
      if (await this.#settle(key, rec, task)) return;
      if (streaming)
        return this.#consume(key, rec, client.resubscribeTask({ tenant: '', id }, { signal }), 'the task subscription');
      await sleep(this.#o.pollIntervalMs, signal);
    }
  }

  /** Reads a stream of task events to the task's next stop; a stream that ends before it is a (transient) cut. */
  async #consume(key: string, rec: CallRecord, events: AsyncGenerator<StreamResponse>, what: string): Promise<void> {
    const seen: Pick<Task, 'artifacts' | 'status' | 'metadata'> = {
      artifacts: [],
      status: undefined,
      metadata: undefined,
    };
    for await (const e of events) {
      const p = e.payload;
      if (p?.$case === 'task') {
        await this.#learnTask(key, rec, p.value);
        Object.assign(seen, { artifacts: [...p.value.artifacts], status: p.value.status, metadata: p.value.metadata });
        if (await this.#settle(key, rec, seen)) return;
      } else if (p?.$case === 'artifactUpdate' && p.value.artifact) {
        const a = p.value.artifact;
        const i = seen.artifacts.findIndex((x) => x.artifactId === a.artifactId);
        const existing = seen.artifacts[i];
        if (existing && p.value.append) existing.parts.push(...a.parts);
        else if (existing) seen.artifacts[i] = a;
        else seen.artifacts.push(a);
      } else if (p?.$case === 'statusUpdate') {
        if (!rec.taskId) await this.#learnTask(key, rec, { id: p.value.taskId });
        seen.status = p.value.status;
        if (p.value.metadata) seen.metadata = { ...seen.metadata, ...p.value.metadata };
        if (await this.#settle(key, rec, seen)) return;
      } else if (p?.$case === 'message') {
        Object.assign(rec, { state: 'completed', text: messageText(p.value) });
        return this.#put(key, rec);
      }
    }
    throw new StreamCutError(what);
  }

  /** Records a task that stopped (finished, or asking); false while it is still working. */
  async #settle(key: string, rec: CallRecord, task: Pick<Task, 'artifacts' | 'status' | 'metadata'>): Promise<boolean> {
    const state = task.status?.state;
    if (isTerminal(state)) {
      const usage = usageOf(task.metadata);
      if (usage) rec.usage = usage;
      if (state === STATE.completed) Object.assign(rec, { state: 'completed', text: answerText(task) });
      else {
        const why = messageText(task.status?.message ?? { parts: [] });
        Object.assign(rec, {
          state: 'failed',
          error: `its task ended ${STATE_NAME[state ?? 0]}${why ? `: ${why}` : ''}`,
        });
      }
    } else if (isWaiting(state)) {
      rec.round += 1;
      rec.question = questionOfTask(task);
      rec.state = 'asking';
      delete rec.answer;
    } else return false;
    await this.#put(key, rec);
    return true;
  }
}

function isInterrupt(error: unknown): boolean {
  return Array.isArray((error as { interrupts?: unknown })?.interrupts);
}
