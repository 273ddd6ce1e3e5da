/**
 * The JSON-RPC binding over HTTP: one POST endpoint for A2A 1.0 and (by the `A2A-Version` header,
 * absent meaning 0.3) the SDK's 0.3 compatibility layer. The SDK's transport handlers parse and
 * answer; this adds what its Express adapter does (content type, version, SSE) plus clearer errors
 * for a body that is not JSON and for unknown methods.
 */
import type { AgentCard } from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { Context } from 'hono';
import type { ServerSdk } from '../wire/sdk.js';
import { sseResponse } from './sse.js';

const V1_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'GetExtendedAgentCard',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
];
const V03_METHODS = [
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard',
];

export interface JsonRpcDeps {
  sdk: ServerSdk;
  handler: A2ARequestHandler;
  legacy: boolean;
}

type RpcError = { code: number; message: string; data?: unknown };
const json = (body: unknown, status = 200): Response => Response.json(body, { status });
const rpcError = (id: unknown, error: RpcError, status = 200): Response =>
  json({ jsonrpc: '2.0', id: id ?? null, error }, status);

const validId = (id: unknown): unknown =>
  typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;

/** What is wrong with a JSON-RPC 2.0 request envelope, if anything. */
function envelopeProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be one JSON object';
  const rpc = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  if (rpc.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('id' in rpc && rpc.id !== null && validId(rpc.id) === null) return 'id must be a string, an integer or null';
  if (typeof rpc.method !== 'string' || rpc.method === '') return 'method must be a non-empty string';
  if ('params' in rpc && (typeof rpc.params !== 'object' || rpc.params === null || Array.isArray(rpc.params)))
    return 'params must be an object';
  return undefined;
}

/** Reads the body and refuses what is not a JSON-RPC request this agent answers (with clearer messages than the SDK's). */
async function preflight(
  request: Request,
  useLegacy: boolean,
  mapError: (e: unknown) => RpcError,
  sdk: ServerSdk,
): Promise<Response | { body: unknown; rpc: { id?: unknown; method?: unknown } }> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type && type !== 'application/json')
    return rpcError(
      null,
      mapError(
        new sdk.errors.ContentTypeNotSupportedError(`Unsupported Content-Type "${type}"; send application/json.`),
      ),
    );
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch (error) {
    return rpcError(null, { code: -32700, message: `The body is not JSON: ${(error as Error).message}` });
  }
  const rpc = (typeof body === 'object' && body !== null ? body : {}) as { id?: unknown; method?: unknown };
  const invalid = envelopeProblem(body);
  if (invalid) return rpcError(validId(rpc.id), { code: -32600, message: `Invalid JSON-RPC request: ${invalid}.` });
  const known = useLegacy ? V03_METHODS : V1_METHODS;
  if (typeof rpc.method === 'string' && !known.includes(rpc.method)) {
    const other = (useLegacy ? V1_METHODS : V03_METHODS).includes(rpc.method);
    const hint = other
      ? ` (an A2A ${useLegacy ? '1.0' : '0.3'} method: send the header A2A-Version: ${useLegacy ? '1.0' : '0.3'})`
      : '';
    return rpcError(rpc.id, {
      code: -32601,
      message: `Unknown method "${rpc.method}"${hint}; this agent answers ${known.join(', ')}.`,
    });
  }
  return { body, rpc };
}

/** Handles one JSON-RPC POST (the request of `c`); `context` is built by the caller (principal, headers, trace). */
export async function handleJsonRpc(
  c: Context,
  deps: JsonRpcDeps,
  card: AgentCard,
  context: ServerCallContext,
  onCancel: () => void,
): Promise<Response> {
  const { sdk } = deps;
  const request = c.req.raw;
  const useLegacy = deps.legacy && (request.headers.get('A2A-Version') || '0.3') === '0.3';
  const mapError = (e: unknown): RpcError =>
    useLegacy
      ? (sdk.legacy.LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(e) as RpcError)
      : sdk.server.JsonRpcTransportHandler.mapToJSONRPCError(e);
  const pre = await preflight(request, useLegacy, mapError, deps.sdk);
  if (pre instanceof Response) return pre;
  const { body, rpc } = pre;
  try {
    sdk.server.validateVersion(context.requestedVersion, card, 'JSONRPC');
  } catch (error) {
    return rpcError(rpc.id, mapError(error));
  }
  const transport = useLegacy
    ? new sdk.legacy.LegacyJsonRpcTransportHandler(deps.handler)
    : new sdk.server.JsonRpcTransportHandler(deps.handler);
  let answer: unknown;
  try {
    answer = await transport.handle(body as Record<string, unknown>, context);
  } catch (error) {
    const mapped = mapError(error);
    return rpcError(rpc.id, mapped, mapped.code === -32603 ? 500 : 200);
  }
  if (typeof answer === 'object' && answer !== null && Symbol.asyncIterator in answer) {
    return sseResponse(c, answer as AsyncGenerator<unknown, void, undefined>, {
      encode: (e) => e,
      errorBody: (e) => ({ jsonrpc: '2.0', id: rpc.id ?? null, error: mapError(e) }),
      firstError: (e) => rpcError(rpc.id, mapError(e)),
      onCancel,
    });
  }
  return json(answer);
}
