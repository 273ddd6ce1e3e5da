/**
 * skein's `A2ARequestHandler`: what each A2A method does with skein tasks. The SDK's transport
 * handlers (JSON-RPC, HTTP+JSON, and their 0.3 compatibility twins) parse the wire and call it; the
 * tasks are skein sessions run by {@link TaskRunner}. Every task belongs to the principal that made
 * it: another principal's task id is answered like an unknown one (TaskNotFound), before any read.
 */
import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { Principal } from '@skein/core';
import { isTerminal, STATE_NAME } from '../wire/protocol.js';
import type { ServerSdk } from '../wire/sdk.js';
import type { IndexEntry, TaskDocs, TaskIndex } from './task-store.js';
import type { Started, TaskRunner } from './task-runner.js';

/** The `ServerCallContext.state` key under which the request's `traceparent` travels. */
export const TRACEPARENT_STATE = 'traceparent';
/** The `ServerCallContext.state` key of an AbortSignal that fires when a streaming client goes away. */
export const SIGNAL_STATE = 'signal';
/** The `ServerCallContext.state` key of the caller's principal (what `authorize` returned). */
export const PRINCIPAL_STATE = 'principal';

export interface HandlerParts {
  card: () => AgentCard;
  runner: TaskRunner;
  index: TaskIndex;
  docs: TaskDocs;
  sdk: ServerSdk;
}

function ownerOf(context: ServerCallContext): string {
  return context.user?.userName || 'anonymous';
}

function principalOf(context: ServerCallContext): Principal {
  const principal = context.state.get(PRINCIPAL_STATE);
  return typeof principal === 'string' || (typeof principal === 'object' && principal !== null)
    ? (principal as Principal)
    : ownerOf(context);
}

function traceparentOf(context: ServerCallContext): string | undefined {
  const v = context.state.get(TRACEPARENT_STATE);
  return typeof v === 'string' ? v : undefined;
}

/** Ends `queue` when the request's client goes away; returns the cleanup. */
function stopOnAbort(context: ServerCallContext, stop: () => void): () => void {
  const signal = context.state.get(SIGNAL_STATE);
  if (!(signal instanceof AbortSignal)) return () => undefined;
  if (signal.aborted) stop();
  signal.addEventListener('abort', stop, { once: true });
  return () => signal.removeEventListener('abort', stop);
}

function withHistory(task: Task, historyLength: number | undefined): Task {
  if (historyLength !== undefined) task.history = historyLength <= 0 ? [] : task.history.slice(-historyLength);
  return task;
}

export class SkeinRequestHandler implements A2ARequestHandler {
  readonly #p: HandlerParts;
  constructor(parts: HandlerParts) {
    this.#p = parts;
  }

  async getAgentCard(): Promise<AgentCard> {
    return this.#p.card();
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new this.#p.sdk.errors.UnsupportedOperationError('This agent has no authenticated extended card.');
  }

  /** The index entry of a task the caller may see, or TaskNotFound. */
  #entry(taskId: string, context: ServerCallContext): IndexEntry {
    const { errors } = this.#p.sdk;
    if (!taskId || !taskId.trim()) throw new errors.RequestMalformedError('A task id is required.');
    const entry = this.#p.index.get(taskId);
    if (!entry || entry.owner !== ownerOf(context))
      throw new errors.TaskNotFoundError(
        `Task not found: ${taskId} (tasks are visible only to the caller that created them).`,
      );
    return entry;
  }

  async #send(params: SendMessageRequest, context: ServerCallContext, subscribe: boolean): Promise<Started> {
    const { errors } = this.#p.sdk;
    const message: Message | undefined = params.message;
    if (!message) throw new errors.RequestMalformedError('params.message is required.');
    if (!message.messageId) throw new errors.RequestMalformedError('message.messageId is required.');
    const owner = ownerOf(context);
    const tp = traceparentOf(context);
    if (message.taskId) {
      this.#entry(message.taskId, context);
      return this.#p.runner.answer(message.taskId, { owner, principal: principalOf(context) }, message, tp, subscribe);
    }
    return this.#p.runner.start(owner, message, tp, subscribe);
  }

  async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    const { live } = await this.#send(params, context, false);
    if (params.configuration?.returnImmediately !== true) await live.ended;
    return withHistory(live.snapshot(), params.configuration?.historyLength);
  }

  async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse> {
    const { live, queue } = await this.#send(params, context, true);
    if (!queue) return;
    const cleanup = stopOnAbort(context, () => live.unsubscribe(queue));
    try {
      yield { payload: { $case: 'task', value: withHistory(live.snapshot(), params.configuration?.historyLength) } };
      yield* queue;
    } finally {
      cleanup();
      live.unsubscribe(queue);
    }
  }

  async #read(taskId: string): Promise<Task> {
    const live = this.#p.runner.live.get(taskId);
    if (live) return live.snapshot();
    const doc = await this.#p.docs.read(taskId);
    if (!doc) throw new this.#p.sdk.errors.TaskNotFoundError(`Task not found: ${taskId} (its session holds no task).`);
    return this.#p.sdk.core.Task.fromJSON(doc.task);
  }

  async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    this.#entry(params.id, context);
    return withHistory(await this.#read(params.id), params.historyLength);
  }

  async listTasks(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const { errors } = this.#p.sdk;
    const pageSize = params.pageSize ?? 50;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)
      throw new errors.RequestMalformedError('pageSize must be between 1 and 100.');
    const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : undefined;
    if (after !== undefined && Number.isNaN(after))
      throw new errors.RequestMalformedError('statusTimestampAfter must be an ISO 8601 date.');
    const owner = ownerOf(context);
    const state = params.status ? STATE_NAME[params.status] : undefined;
    const matching = this.#p.index
      .entries()
      .filter(([, e]) => e.owner === owner)
      .filter(([, e]) => !params.contextId || e.contextId === params.contextId)
      .filter(([, e]) => !state || e.state === state)
      .filter(([, e]) => after === undefined || Date.parse(e.updatedAt) > after)
      .sort(([ia, a], [ib, b]) => b.updatedAt.localeCompare(a.updatedAt) || ib.localeCompare(ia));
    const offset = params.pageToken ? Number.parseInt(params.pageToken, 10) : 0;
    if (!Number.isInteger(offset) || offset < 0)
      throw new errors.RequestMalformedError('pageToken is not one this agent gave.');
    const page = matching.slice(offset, offset + pageSize);
    const tasks = await Promise.all(page.map(async ([id]) => withHistory(await this.#read(id), params.historyLength)));
    const next = offset + page.length;
    return { tasks, nextPageToken: next < matching.length ? String(next) : '', pageSize, totalSize: matching.length };
  }

  async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    this.#entry(params.id, context);
    return this.#p.runner.cancel(params.id);
  }

  async *resubscribe(params: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse> {
    this.#entry(params.id, context);
    const live = this.#p.runner.live.get(params.id);
    if (!live) {
      const task = await this.#read(params.id);
      if (isTerminal(task.status?.state))
        throw new this.#p.sdk.errors.UnsupportedOperationError(
          `Task ${params.id} is finished; read it with GetTask instead of subscribing.`,
        );
      yield { payload: { $case: 'task', value: task } };
      return;
    }
    const queue = live.subscribe();
    const cleanup = stopOnAbort(context, () => live.unsubscribe(queue));
    try {
      yield { payload: { $case: 'task', value: live.snapshot() } };
      yield* queue;
    } finally {
      cleanup();
      live.unsubscribe(queue);
    }
  }

  async createTaskPushNotificationConfig(_p: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
    throw new this.#p.sdk.errors.PushNotificationNotSupportedError('This agent does not send push notifications.');
  }
  async getTaskPushNotificationConfig(_p: GetTaskPushNotificationConfigRequest): Promise<TaskPushNotificationConfig> {
    throw new this.#p.sdk.errors.PushNotificationNotSupportedError('This agent does not send push notifications.');
  }
  async listTaskPushNotificationConfigs(
    _p: ListTaskPushNotificationConfigsRequest,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    throw new this.#p.sdk.errors.PushNotificationNotSupportedError('This agent does not send push notifications.');
  }
  async deleteTaskPushNotificationConfig(_p: DeleteTaskPushNotificationConfigRequest): Promise<void> {
    throw new this.#p.sdk.errors.PushNotificationNotSupportedError('This agent does not send push notifications.');
  }
}
