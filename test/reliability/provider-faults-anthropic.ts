/**
 * Anthropic's fault table: `AnthropicModel` (the real SDK) against the loopback Messages API server.
 * 429 with and without `retry-after-ms`, 529, 500, an `overloaded_error` event mid-stream, a stream
 * cut before `message_stop`, a reset mid-stream, a truncated event, malformed tool-call JSON, and the
 * `prompt is too long` 400.
 */
import { AnthropicModel } from '@skein/model-anthropic';
import {
  AnthropicTestServer,
  answerEvents,
  encodeSse,
  errorBody,
  errorEvent,
  type HttpReply,
  type RecordedHttpRequest,
  type ScriptedReply,
  type StreamReply,
} from '@skein/model-anthropic/testing';
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

const CUT_ID = 'toolu_cut';
const partial = answerEvents({
  blocks: [{ text: FRAGMENT }, { toolUse: { id: CUT_ID, name: 'lookup', inputChunks: CUT_INPUT } }],
});

const KINDS = [
  '429 retry-after-ms',
  '429 no retry-after',
  '529 overloaded',
  '500',
  'overloaded event mid-stream',
  'cut before message_stop',
  'reset mid-stream',
  'truncated event',
  'malformed tool-call JSON',
  'context overflow',
] as const;

function fault(kind: string, random: () => number): Fault<ScriptedReply> {
  switch (kind) {
    case '429 retry-after-ms': {
      const retryAfterMs = 5 + Math.floor(random() * 40);
      return {
        kind,
        retryable: true,
        retryAfterMs,
        reply: {
          status: 429,
          body: errorBody('rate_limit_error', 'slow down'),
          headers: { 'retry-after-ms': String(retryAfterMs) },
        },
      };
    }
    case '429 no retry-after':
      return { kind, retryable: true, reply: { status: 429, body: errorBody('rate_limit_error', 'slow down') } };
    case '529 overloaded':
      return { kind, retryable: true, reply: { status: 529, body: errorBody('overloaded_error', 'Overloaded') } };
    case '500':
      return { kind, retryable: true, reply: { status: 500, body: errorBody('api_error', 'Internal server error') } };
    case 'overloaded event mid-stream':
      return {
        kind,
        retryable: true,
        reply: { events: [...partial.slice(0, 5), errorEvent('overloaded_error', 'Overloaded')] },
      };
    case 'cut before message_stop':
      return { kind, retryable: true, reply: { events: partial, cutAfter: partial.length - 1 } };
    case 'reset mid-stream':
      return {
        kind,
        retryable: true,
        reply: { events: partial, cutAfter: 2 + Math.floor(random() * (partial.length - 4)) },
      };
    case 'truncated event': {
      const cut = encodeSse(partial[4]!).slice(0, 30);
      return { kind, retryable: true, reply: { events: [...partial.slice(0, 4), cut], cutAfter: 5 } };
    }
    case 'malformed tool-call JSON':
      return {
        kind,
        retryable: false,
        reply: {
          events: answerEvents({
            blocks: [{ toolUse: { id: 'toolu_bad', name: 'lookup', inputChunks: MALFORMED_INPUT } }],
          }),
        },
      };
    case 'context overflow':
      return {
        kind,
        retryable: false,
        reply: {
          status: 400,
          body: errorBody('invalid_request_error', 'prompt is too long: 250000 tokens > 200000 maximum'),
        },
      };
    default:
      throw new Error(`unknown anthropic fault kind ${kind}`);
  }
}

function good(answer: GoodAnswer): ScriptedReply {
  if (answer === 'final') return { events: answerEvents({ blocks: [{ text: FINAL }] }) };
  return {
    events: answerEvents({
      blocks: [
        { text: [LOOKING] },
        { toolUse: { id: `toolu_${answer.lookup}`, name: 'lookup', inputChunks: lookupInput(answer.lookup) } },
      ],
    }),
  };
}

const toolResultCount = (request: RecordedHttpRequest): number => {
  const messages = (request.body as { messages?: { content: unknown }[] } | undefined)?.messages ?? [];
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as { type?: string }[]) : []))
    .filter((b) => b.type === 'tool_result').length;
};

/** Anthropic's part of the provider campaign. */
export const anthropicFaults: ProviderFaultTable<ScriptedReply> = {
  name: 'anthropic',
  kinds: KINDS,
  cutToolUseId: CUT_ID,
  fault,
  async start(serve) {
    const server = await AnthropicTestServer.start({ record: false, loop: true });
    server.enqueue((request): StreamReply | HttpReply => {
      const decision = serve(toolResultCount(request));
      const reply = 'good' in decision ? good(decision.good) : decision.fault;
      return typeof reply === 'function' ? reply(request) : reply;
    });
    return {
      model: new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: server.url } }),
      close: () => server.close(),
    };
  },
};
