/**
 * Bedrock's fault table: `BedrockModel` (the real `@aws-sdk/client-bedrock-runtime`) against the
 * loopback ConverseStream server (AWS event-stream frames over HTTP/2 cleartext). Faults as Bedrock
 * sends them: a 429 `ThrottlingException` with a `retry-after` (whole seconds) and without, a 503
 * `ServiceUnavailableException`, a 500 `InternalServerException`, a `modelStreamErrorException`
 * frame mid-stream, a stream closed before `messageStop`, an HTTP/2 stream reset mid-stream,
 * malformed tool-call JSON, and the 400 `ValidationException` "Input is too long for requested model."
 */
import { BedrockModel } from '@skein/model-bedrock';
import {
  BedrockWireServer,
  textFrames,
  toolUseFrames,
  type WireFrame,
  type WireReply,
  type WireRequest,
} from '@skein/model-bedrock/testing';
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

const CUT_ID = 'tooluse_cut';
const start: WireFrame = { event: 'messageStart', body: { role: 'assistant' } };
const text = (index: number, pieces: string[]): WireFrame[] => [
  ...pieces.map((t) => ({ event: 'contentBlockDelta', body: { contentBlockIndex: index, delta: { text: t } } })),
  { event: 'contentBlockStop', body: { contentBlockIndex: index } },
];
const stop = (stopReason: string): WireFrame[] => [
  { event: 'messageStop', body: { stopReason } },
  {
    event: 'metadata',
    body: { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, metrics: { latencyMs: 42 } },
  },
];
/** A text and a tool call, up to (not including) `messageStop`: what a failing stream sends first. */
const partial: WireFrame[] = [start, ...text(0, FRAGMENT), ...toolUseFrames(1, CUT_ID, 'lookup', CUT_INPUT)];

const KINDS = [
  'ThrottlingException retry-after',
  'ThrottlingException no retry-after',
  '503 ServiceUnavailableException',
  '500 InternalServerException',
  'modelStreamErrorException mid-stream',
  'closed before messageStop',
  'reset mid-stream',
  'malformed tool-call JSON',
  'context overflow',
] as const;

function fault(kind: string, random: () => number): Fault<WireReply> {
  switch (kind) {
    case 'ThrottlingException retry-after': {
      // HTTP's retry-after is whole seconds; 0 or 1 keeps trials short and still checks the wait.
      const seconds = Math.floor(random() * 2);
      const reply: WireReply = {
        status: 429,
        errorType: 'ThrottlingException',
        message: 'Too many requests, please wait before trying again.',
        headers: { 'retry-after': String(seconds) },
      };
      return { kind, retryable: true, retryAfterMs: seconds * 1000, reply };
    }
    case 'ThrottlingException no retry-after':
      return {
        kind,
        retryable: true,
        reply: {
          status: 429,
          errorType: 'ThrottlingException',
          message: 'Too many tokens, please wait before trying again.',
        },
      };
    case '503 ServiceUnavailableException':
      return {
        kind,
        retryable: true,
        reply: {
          status: 503,
          errorType: 'ServiceUnavailableException',
          message: 'Bedrock is unable to process your request.',
        },
      };
    case '500 InternalServerException':
      return {
        kind,
        retryable: true,
        reply: {
          status: 500,
          errorType: 'InternalServerException',
          message: 'The server encountered an internal error.',
        },
      };
    case 'modelStreamErrorException mid-stream': {
      const body = {
        message: 'Received an error from the model while streaming.',
        originalStatusCode: 500,
        originalMessage: 'Internal server error',
      };
      return {
        kind,
        retryable: true,
        reply: {
          frames: [
            ...partial.slice(0, 2 + Math.floor(random() * (partial.length - 2))),
            { exception: 'modelStreamErrorException', body },
          ],
        },
      };
    }
    case 'closed before messageStop':
      return { kind, retryable: true, reply: { frames: partial, end: 'close' } };
    case 'reset mid-stream':
      return {
        kind,
        retryable: true,
        reply: { frames: partial.slice(0, 2 + Math.floor(random() * (partial.length - 2))), end: 'reset' },
      };
    case 'malformed tool-call JSON':
      return {
        kind,
        retryable: false,
        reply: { frames: [start, ...toolUseFrames(0, 'tooluse_bad', 'lookup', MALFORMED_INPUT), ...stop('tool_use')] },
      };
    case 'context overflow':
      return {
        kind,
        retryable: false,
        reply: { status: 400, errorType: 'ValidationException', message: 'Input is too long for requested model.' },
      };
    default:
      throw new Error(`unknown bedrock fault kind ${kind}`);
  }
}

function good(answer: GoodAnswer): WireReply {
  if (answer === 'final') return { frames: textFrames(FINAL) };
  const id = answer.lookup;
  return {
    frames: [
      start,
      ...text(0, [LOOKING]),
      ...toolUseFrames(1, `tooluse_${id}`, 'lookup', lookupInput(id)),
      ...stop('tool_use'),
    ],
  };
}

const toolResultCount = (request: WireRequest): number => {
  const messages = (request.body as { messages?: { content?: unknown }[] } | undefined)?.messages ?? [];
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as object[]) : []))
    .filter((b) => 'toolResult' in b).length;
};

/** Bedrock's part of the provider campaign. */
export const bedrockFaults: ProviderFaultTable<WireReply> = {
  name: 'bedrock',
  kinds: KINDS,
  cutToolUseId: CUT_ID,
  fault,
  async start(serve) {
    const server = await new BedrockWireServer().start();
    server.record = false;
    // Each reply queues the next, so the server answers every request through `serve`.
    const reply = (request: WireRequest): WireReply => {
      server.reply(reply);
      const decision = serve(toolResultCount(request));
      return 'good' in decision ? good(decision.good) : decision.fault;
    };
    server.reply(reply);
    const model = new BedrockModel({
      region: 'us-east-1',
      clientConfig: { endpoint: server.endpoint, credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' } },
    });
    return {
      model,
      async close() {
        model.client.destroy();
        await server.close();
      },
    };
  },
};
