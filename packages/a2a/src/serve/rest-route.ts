/**
 * The HTTP+JSON (REST) binding of A2A 1.0, as the SDK's Express adapter serves it: `POST
 * /message:send`, `POST /message:stream`, `GET /tasks`, `GET /tasks/{id}`, `POST
 * /tasks/{id}:cancel`, `GET|POST /tasks/{id}:subscribe`; errors as `{ error: { code, status,
 * message, details } }` with the protocol's HTTP status. No tenants in the path.
 */
import type { AgentCard, ListTasksRequest, SendMessageRequest } from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
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

/** Handles one request under the REST base; `path` is the part after it (`/message:send`...). */
export async function handleRest(
  request: Request,
  path: string,
  deps: RestDeps,
  card: AgentCard,
  context: ServerCallContext,
  onCancel: () => void,
): Promise<Response> {
  const { sdk, handler } = deps;
  const fail = (e: unknown): Response => {
    const status = sdk.errors.restStatusFor(e);
    return reply(sdk.errors.toRestErrorBody(e, status), status);
  };
  const stream = (events: AsyncGenerator<import('@a2a-js/sdk').StreamResponse, void, undefined>): Promise<Response> =>
    sseResponse(events, {
      encode: (e) => sdk.core.StreamResponse.toJSON(e),
      errorBody: (e) => sdk.errors.toRestErrorBody(e, sdk.errors.restStatusFor(e)),
      firstError: fail,
      onCancel,
    });
  try {
    sdk.server.validateVersion(context.requestedVersion, card, 'HTTP+JSON');
    const method = request.method;
    const url = new URL(request.url);
    const readSend = async (): Promise<SendMessageRequest> => {
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
    };
    if (method === 'POST' && path === '/message:send') {
      const result = await handler.sendMessage(await readSend(), context);
      const payload =
        'messageId' in result
          ? { $case: 'message' as const, value: result }
          : { $case: 'task' as const, value: result };
      return reply(sdk.core.SendMessageResponse.toJSON({ payload }));
    }
    if (method === 'POST' && path === '/message:stream')
      return stream(handler.sendMessageStream(await readSend(), context));
    if (method === 'GET' && path === '/tasks') {
      const q = url.searchParams;
      const status = q.get('status');
      const params: ListTasksRequest = {
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
      const result = await handler.listTasks(params, context);
      if (!params.includeArtifacts) for (const t of result.tasks) t.artifacts = [];
      return reply(sdk.core.ListTasksResponse.toJSON(result));
    }
    if (path === '/extendedAgentCard')
      return reply(await handler.getAuthenticatedExtendedAgentCard({ tenant: '' }, context));
    const task = /^\/tasks\/([^/:]+)(:cancel|:subscribe|\/pushNotificationConfigs.*)?$/.exec(path);
    const id = task?.[1] ? decodeURIComponent(task[1]) : undefined;
    if (id !== undefined) {
      const action = task?.[2];
      if (action === undefined && method === 'GET') {
        const historyLength = int(url.searchParams.get('historyLength'), 'historyLength', sdk);
        return reply(sdk.core.Task.toJSON(await handler.getTask({ tenant: '', id, historyLength }, context)));
      }
      if (action === ':cancel' && method === 'POST')
        return reply(sdk.core.Task.toJSON(await handler.cancelTask({ tenant: '', id, metadata: undefined }, context)));
      if (action === ':subscribe' && (method === 'GET' || method === 'POST'))
        return stream(handler.resubscribe({ tenant: '', id }, context));
      if (action?.startsWith('/pushNotificationConfigs'))
        throw new sdk.errors.PushNotificationNotSupportedError('This agent does not send push notifications.');
    }
    throw new sdk.errors.UnsupportedOperationError(`No A2A operation answers ${method} ${path}.`);
  } catch (error) {
    return fail(error);
  }
}
