/**
 * One call to a remote agent, driven from its stored record: send the message (or find the task it
 * started, when a crash or a fault left that unknown), follow the task (streaming when the card says
 * so, else GetTask), ask the caller when the task asks, send the answer, and record each step before
 * the next one talks to the remote agent. A retry after a transient fault and a resume after a crash
 * run the same code: a task whose id is known is never started again.
 */
import type { Message } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { ModelTransientError, type JsonObject, type JsonValue, type RetryStrategy } from '@skein/core';
import { RemoteAgentError, type RemoteFailure } from '../errors.js';
import { textPart } from '../wire/parts.js';
import type { CallRecord, CallStore } from './call-store.js';
import type { Connected, Connection } from './connection.js';
import { CallProgress, type ReportUpdate } from './call-progress.js';
import { classify } from './faults.js';
import { answerParts, interruptFor, messageText } from './task-reading.js';
import { findTask, sleep, userMessage } from './task-wire.js';

/** What one call needs from its caller. */
export interface CallRequest {
  /** The record's key (a tool use id): the same key after a crash finds the same remote task. */
  key: string;
  /** The message to send when the call is new. */
  text: string;
  signal: AbortSignal;
  /** Asks the caller (a skein interrupt); returns the answer once the caller resumed with one. */
  ask: (name: string, reason: JsonValue) => JsonValue;
  /** Told of what the remote task says while it works (status messages, artifacts), when someone watches. */
  report?: ReportUpdate | undefined;
}

/** The remote agent's answer. */
export interface CallAnswer {
  text: string;
  taskId: string | undefined;
  usage: CallRecord['usage'] | undefined;
}

export interface CallerOptions {
  /** Cancel the remote task when the caller's signal aborts (else it goes on, and a resume finds it). */
  cancelOnAbort: boolean;
  retry: RetryStrategy | null;
  timeoutMs: number;
  pollIntervalMs: number;
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
        if (req.signal.aborted) {
          if (this.#o.cancelOnAbort && rec) await this.#cancel(req.key, rec);
          throw req.signal.reason ?? error;
        }
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

  /** Best effort: cancels the remote task (5 s at most) and records the call as ended. */
  async #cancel(key: string, rec: CallRecord): Promise<void> {
    if (!rec.taskId || rec.state === 'completed' || rec.state === 'failed') return;
    try {
      const { client } = await this.#conn.connect();
      await client.cancelTask(
        { tenant: '', id: rec.taskId, metadata: undefined },
        { signal: AbortSignal.timeout(5_000) },
      );
    } catch {
      // the caller is leaving either way; the task may have ended meanwhile
    }
    Object.assign(rec, {
      state: 'failed',
      error: 'its task was canceled by the caller',
    });
    await this.#store.put(key, rec).catch(() => undefined);
  }

  async #advance(
    req: CallRequest,
    rec: CallRecord,
    connected: Connected,
    signal: AbortSignal,
    lookup: boolean,
  ): Promise<CallAnswer> {
    const { client, streaming } = connected;
    const p = new CallProgress(req.key, rec, this.#store, req.report);
    for (;;) {
      switch (rec.state) {
        case 'completed':
          return { text: rec.text ?? '', taskId: rec.taskId, usage: rec.usage };
        case 'failed':
          throw this.#error(rec.error ?? 'its task failed', 'task_failed', rec);
        case 'asking': {
          const question = rec.question ?? { text: '', interrupts: [] };
          const remote: JsonObject = {
            agent: this.#conn.name,
            url: this.#conn.url,
            taskId: rec.taskId ?? null,
          };
          const { name, reason } = interruptFor(question, rec.round, remote);
          const response = req.ask(name, reason);
          rec.answer = {
            messageId: crypto.randomUUID(),
            response,
            interrupts: question.interrupts,
          };
          rec.state = 'answering';
          await p.put();
          break;
        }
        case 'answering':
          await this.#answer(p, client, streaming, signal);
          break;
        case 'sending': {
          if (lookup && (await findTask(p, client, signal))) break;
          const message = userMessage(rec, rec.messageId, [textPart(req.text)]);
          await this.#send(p, client, streaming, message, signal);
          lookup = true;
          break;
        }
        case 'working':
          await this.#follow(p, client, streaming, signal);
          break;
      }
    }
  }

  /** Sends a message (the first one, or an answer) and follows the task to its next stop. */
  async #send(
    p: CallProgress,
    client: Client,
    streaming: boolean,
    message: Message,
    signal: AbortSignal,
  ): Promise<void> {
    const params = {
      tenant: '',
      message,
      configuration: undefined,
      metadata: undefined,
    };
    if (streaming) return p.consume(client.sendMessageStream(params, { signal }), 'the message stream');
    const result = await client.sendMessage(params, { signal });
    if ('messageId' in result) return p.answered(messageText(result));
    await p.learnTask(result);
    if (!(await p.settle(result))) await this.#follow(p, client, false, signal);
  }

  async #answer(p: CallProgress, client: Client, streaming: boolean, signal: AbortSignal): Promise<void> {
    const rec = p.rec;
    const answer = rec.answer;
    if (!answer || !rec.taskId)
      throw this.#error('an answer was to be sent to a task that is not known', 'bad_response', rec);
    const parts = answerParts(answer.response, answer.interrupts);
    if (!parts)
      throw this.#error(
        `it asked ${answer.interrupts.length} questions; answer with an object mapping each id (${answer.interrupts
          .map((i) => (i as { id?: string }).id)
          .join(', ')}) to its answer`,
        'bad_answer',
        rec,
      );
    try {
      await this.#send(p, client, streaming, userMessage(rec, answer.messageId, parts, rec.taskId), signal);
    } catch (error) {
      if (classify(error).a2aCode !== -32004) throw error;
      rec.state = 'working'; // the answer arrived before (a crash cut the call after it): follow the task instead
      await p.put();
    }
  }

  /** Follows a known task to its next stop: GetTask, then SubscribeToTask (streaming) or GetTask polling. */
  async #follow(p: CallProgress, client: Client, streaming: boolean, signal: AbortSignal): Promise<void> {
    const id = p.rec.taskId;
    if (!id) throw this.#error('there is no task to follow', 'bad_response', p.rec);
    for (;;) {
      const task = await client.getTask({ tenant: '', id, historyLength: 0 }, { signal });
      if (await p.settle(task)) return;
      if (streaming) return p.consume(client.resubscribeTask({ tenant: '', id }, { signal }), 'the task subscription');
      await sleep(this.#o.pollIntervalMs, signal);
    }
  }
}

function isInterrupt(error: unknown): boolean {
  return Array.isArray((error as { interrupts?: unknown })?.interrupts);
}
