/**
 * The HTTP+JSON (REST) binding of A2A 1.0, as the SDK's Express adapter serves it: `POST
 * /message:send`, `POST /message:stream`, `GET /tasks`, `GET /tasks/{id}`, `POST
 * /tasks/{id}:cancel`, `GET|POST /tasks/{id}:subscribe`; errors as `{ error: { code, status,
 * message, details } }` with the protocol's HTTP status. No tenants in the path.
 */
import type { AgentCard, ListTasksRequest, SendMessageRequest, StreamResponse } from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { Context } from 'hono';
import { stateOf } from '../wire/protocol.js';
import type { ServerSdk } from '../wire/sdk.js';
import { sseResponse } from './sse.js';

const CONTENT_TYPE = 'application/a2a+json';

export interface RestDeps {
  sdk: ServerSdk;
  handler: A2ARequestHandler;
}

function reply(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': CONTENT_TYPE } });
}

function int(value: string | null, name: string, sdk: ServerSdk): number | undefined {
  if (value === null || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new sdk.errors.RequestMalformedError(`${name} must be a whole number >= 0.`);
  return n;
}

/** The body of a send: a SendMessageRequest with a message that has an id. */
async function readSend(request: Request, sdk: ServerSdk): Promise<SendMessageRequest> {
  let raw: unknown;
  try {
    raw = JSON.parse((await request.text()) || '{}');
  } catch {
    throw new sdk.errors.RequestMalformedError('The body is not JSON.');
  }
  const params = sdk.core.SendMessageRequest.fromJSON(raw ?? {});
  if (!params.message) throw new sdk.errors.RequestMalformedError('message is required.');
  if (!params.message.messageId) throw new sdk.errors.RequestMalformedError('message.messageId is required.');
  return params;
}

/** ListTasks parameters from the query string. */
function listParams(q: URLSearchParams, sdk: ServerSdk): ListTasksRequest {
  const status = q.get('status');
  return {
    tenant: '',
    contextId: q.get('contextId') ?? '',
    status: status
      ? /^\d+$/.test(status)
        ? Number(status)
        : sdk.core.taskStateFromJSON(status)
      : stateOf('unspecified'),
    pageSize: int(q.get('pageSize'), 'pageSize', sdk),
    pageToken: q.get('pageToken') ?? '',
    historyLength: int(q.get('historyLength'), 'historyLength', sdk),
    statusTimestampAfter: q.get('statusTimestampAfter') ?? undefined,
    includeArtifacts: q.get('includeArtifacts') === 'true',
  };
}

type Route = (request: Request, path: string) => Promise<Response | undefined>;

/** The routes of one task (`/tasks/{id}`, `:cancel`, `:subscribe`). */
function taskRoutes(deps: RestDeps, context: ServerCallContext, stream: Stream): Route {
  const { sdk, handler } = deps;
  return async (request, path) => {
    const task = /^\/tasks\/([^/:]+)(:cancel|:subscribe|\/pushNotificationConfigs.*)?$/.exec(path);
    if (!task?.[1]) return undefined;
    const id = decodeURIComponent(task[1]);
    const [action, method] = [task[2], request.method];
    if (action === undefined && method === 'GET') {
      const historyLength = int(new URL(request.url).searchParams.get('historyLength'), 'historyLength', sdk);
      return reply(sdk.core.Task.toJSON(await handler.getTask({ tenant: '', id, historyLength }, context)));
    }
    if (action === ':cancel' && method === 'POST')
      return reply(sdk.core.Task.toJSON(await handler.cancelTask({ tenant: '', id, metadata: undefined }, context)));
    if (action === ':subscribe' && (method === 'GET' || method === 'POST'))
      return stream(handler.resubscribe({ tenant: '', id }, context));
    if (action?.startsWith('/pushNotificationConfigs'))
      throw new sdk.errors.PushNotificationNotSupportedError('This agent does not send push notifications.');
    return undefined;
  };
}

type Stream = (events: AsyncGenerator<StreamResponse, void, undefined>) => Promise<Response>;

/** Handles one request under the REST base; `path` is the part after it (`/message:send`...). */
export async function handleRest(
  c: Context,
  path: string,
  deps: RestDeps,
  card: AgentCard,
  context: ServerCallContext,
  onCancel: () => void,
): Promise<Response> {
  const { sdk, handler } = deps;
  const request = c.req.raw;
  const fail = (e: unknown): Response => {
    const status = sdk.errors.restStatusFor(e);
    return reply(sdk.errors.toRestErrorBody(e, status), status);
  };
  const stream: Stream = (events) =>
    sseResponse(c, events, {
      encode: (e) => sdk.core.StreamResponse.toJSON(e),
      errorBody: (e) => sdk.errors.toRestErrorBody(e, sdk.errors.restStatusFor(e)),
      firstError: fail,
      onCancel,
    });
  try {
    sdk.server.validateVersion(context.requestedVersion, card, 'HTTP+JSON');
    const method = request.method;
    if (method === 'POST' && path === '/message:send') {
      const result = await handler.sendMessage(await readSend(request, sdk), context);
      const payload =
        'messageId' in result
          ? { $case: 'message' as const, value: result }
          : { $case: 'task' as const, value: result };
      return reply(sdk.core.SendMessageResponse.toJSON({ payload }));
    }
    if (method === 'POST' && path === '/message:stream')
      return stream(handler.sendMessageStream(await readSend(request, sdk), context));
    if (method === 'GET' && path === '/tasks') {
      const params = listParams(new URL(request.url).searchParams, sdk);
      const result = await handler.listTasks(params, context);
      if (!params.includeArtifacts) for (const t of result.tasks) t.artifacts = [];
      return reply(sdk.core.ListTasksResponse.toJSON(result));
    }
    if (path === '/extendedAgentCard')
      return reply(await handler.getAuthenticatedExtendedAgentCard({ tenant: '' }, context));
    const answered = await taskRoutes(deps, context, stream)(request, path);
    if (answered) return answered;
    throw new sdk.errors.UnsupportedOperationError(`No A2A operation answers ${method} ${path}.`);
  } catch (error) {
    return fail(error);
  }
}
