/**
 * OpenAI's fault table: `OpenAIModel` (the real `openai` SDK, Chat Completions) against the loopback
 * Chat Completions server. Faults as OpenAI sends them: 429 `rate_limit_exceeded` with
 * `retry-after-ms`, with `retry-after` (whole seconds) and with neither, 500 and 503 `server_error`,
 * a stream closed before the `finish_reason` chunk, a connection reset mid-stream, a `data:` line
 * truncated by a connection that died in its middle, malformed tool-call arguments, and the 400
 * `context_length_exceeded`.
 *
 * The test server writes whole chunks only, so the truncated line is cut on the client side: the
 * server sends the chunks and resets the connection, and the client's `fetch` passes the bytes on
 * only up to the middle of the last `data:` line, then the real reset.
 */
import { OpenAIModel } from '@skein/model-openai';
import {
  OpenAITestServer,
  chatChunks,
  encodeChunks,
  errorBody,
  type RecordedRequest,
  type ScriptedReply,
} from '@skein/model-openai/testing';
import {
  CUT_INPUT,
  FINAL,
  FRAGMENT,
  LOOKING,
  MALFORMED_INPUT,
  lookupInput,
  type Fault,
  type GoodAnswer,
  type ProviderFaultTable,
} from './provider-fault-table.js';

/** A scripted reply, plus the byte after which the client sees no more of it (a truncated line). */
type OpenAIReply = ScriptedReply & { truncateAtByte?: number };

const CUT_ID = 'call_cut';
/** Role, two text pieces, the tool call's start and two argument fragments, finish_reason, usage. */
const partial = chatChunks({ text: FRAGMENT, toolCalls: [{ id: CUT_ID, name: 'lookup', args: CUT_INPUT }] });
const FINISH = partial.length - 2;
/**
 * Resets are written in pieces of this many bytes: the test server destroys the socket in the tick
 * of its last write, which drops that write (all of a reply written at once never leaves: a
 * connection closed before the headers, not mid-stream). In pieces, all but the last piece arrive.
 */
const SPLIT = 16;

const KINDS = [
  '429 retry-after-ms',
  '429 retry-after',
  '429 no retry-after',
  '500',
  '503',
  'closed before finish_reason',
  'reset mid-stream',
  'truncated data: line',
  'malformed tool-call arguments',
  'context_length_exceeded',
] as const;

const rateLimited = (headers: Record<string, string> = {}): ScriptedReply => ({
  status: 429,
  body: errorBody(
    'Rate limit reached for gpt-4o in organization org-test on requests per min (RPM): Limit 500, Used 500, Requested 1.',
    'requests',
    'rate_limit_exceeded',
  ),
  headers,
});

function fault(kind: string, random: () => number): Fault<OpenAIReply> {
  switch (kind) {
    case '429 retry-after-ms': {
      const retryAfterMs = 5 + Math.floor(random() * 40);
      return { kind, retryable: true, retryAfterMs, reply: rateLimited({ 'retry-after-ms': String(retryAfterMs) }) };
    }
    case '429 retry-after': {
      const seconds = Math.floor(random() * 2);
      return {
        kind,
        retryable: true,
        retryAfterMs: seconds * 1000,
        reply: rateLimited({ 'retry-after': String(seconds) }),
      };
    }
    case '429 no retry-after':
      return { kind, retryable: true, reply: rateLimited() };
    case '500':
      return {
        kind,
        retryable: true,
        reply: {
          status: 500,
          body: errorBody('The server had an error while processing your request. Sorry about that!', 'server_error'),
        },
      };
    case '503':
      return {
        kind,
        retryable: true,
        reply: {
          status: 503,
          body: errorBody('The engine is currently overloaded, please try again later.', 'server_error'),
        },
      };
    case 'closed before finish_reason':
      return { kind, retryable: true, reply: { chunks: partial, closeAfter: FINISH } };
    case 'reset mid-stream':
      return {
        kind,
        retryable: true,
        reply: { chunks: partial, cutAfter: 1 + Math.floor(random() * FINISH), splitBytes: SPLIT },
      };
    case 'truncated data: line': {
      const lines = 2 + Math.floor(random() * (FINISH - 1));
      const truncateAtByte =
        encodeChunks(partial.slice(0, lines - 1), false).length + 'data: '.length + Math.floor(random() * 40);
      return { kind, retryable: true, reply: { chunks: partial, cutAfter: lines, splitBytes: SPLIT, truncateAtByte } };
    }
    case 'malformed tool-call arguments':
      return {
        kind,
        retryable: false,
        reply: { chunks: chatChunks({ toolCalls: [{ id: 'call_bad', name: 'lookup', args: MALFORMED_INPUT }] }) },
      };
    case 'context_length_exceeded': {
      const message =
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.";
      return {
        kind,
        retryable: false,
        reply: { status: 400, body: errorBody(message, 'invalid_request_error', 'context_length_exceeded') },
      };
    }
    default:
      throw new Error(`unknown openai fault kind ${kind}`);
  }
}

function good(answer: GoodAnswer): ScriptedReply {
  if (answer === 'final') return { chunks: chatChunks({ text: FINAL }) };
  const id = answer.lookup;
  return {
    chunks: chatChunks({ text: [LOOKING], toolCalls: [{ id: `call_${id}`, name: 'lookup', args: lookupInput(id) }] }),
  };
}

const toolResultCount = (request: RecordedRequest | undefined): number => {
  const messages = (request?.body['messages'] ?? []) as { role?: string }[];
  return messages.filter((m) => m.role === 'tool').length;
};

/** A fetch that passes on only the first `bytes` bytes of the responses named in `truncate`, then their real end. */
function truncatingFetch(truncate: Map<string, number>): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const bytes = truncate.get(response.headers.get('x-request-id') ?? '');
    if (bytes === undefined || !response.body) return response;
    let seen = 0;
    const cut = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (seen < bytes) controller.enqueue(chunk.subarray(0, bytes - seen));
        seen += chunk.length;
      },
    });
    return new Response(response.body.pipeThrough(cut), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** OpenAI's part of the provider campaign. */
export const openaiFaults: ProviderFaultTable<OpenAIReply> = {
  name: 'openai',
  kinds: KINDS,
  cutToolUseId: CUT_ID,
  fault,
  async start(serve) {
    const server = await OpenAITestServer.start();
    const truncate = new Map<string, number>();
    // Each reply queues the next, so the server answers every request through `serve`.
    const reply = (): ScriptedReply => {
      server.enqueue(reply);
      const decision = serve(toolResultCount(server.requests.at(-1)));
      if ('good' in decision) return good(decision.good);
      if (decision.fault.truncateAtByte !== undefined)
        truncate.set(`req_${server.requests.length}`, decision.fault.truncateAtByte);
      return decision.fault;
    };
    server.enqueue(reply);
    const model = new OpenAIModel({
      modelId: 'gpt-4o',
      apiKey: 'sk-test',
      baseURL: server.url,
      clientOptions: { fetch: truncatingFetch(truncate) },
    });
    return { model, close: () => server.close() };
  },
};
