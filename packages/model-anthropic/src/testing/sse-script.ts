/**
 * Builders of Anthropic Messages API stream events, in the exact order and shape the API sends them:
 * `message_start` (with usage), per block `content_block_start` / `content_block_delta`* /
 * `content_block_stop`, `message_delta` (stop reason and usage), `message_stop`, with `ping`s.
 */

/** One server-sent event: its `event:` name and the JSON sent on its `data:` line. */
export interface SseEvent {
  /** The `event:` line, e.g. `content_block_delta`. */
  event: string;
  /** The value written as JSON on the `data:` line. */
  data: unknown;
}

/** A content block of a scripted answer; each string of a chunk list becomes one delta. */
export type ScriptBlock =
  | { text: string[] }
  | { toolUse: { id: string; name: string; inputChunks: string[] } }
  | { thinking: string[]; signature: string }
  | { redactedThinking: string };

/** Token counts reported by a scripted answer (Anthropic's snake_case names). */
export interface ScriptUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** A scripted answer: its blocks, stop reason and usage. */
export interface AnswerScript {
  /** The content blocks, in order; their position is their `index`. */
  blocks: ScriptBlock[];
  /** Default `tool_use` when a block is a tool use, else `end_turn`. */
  stopReason?: string;
  /** Token counts; input 10 and output 5 when not given, cache counts 0. */
  usage?: ScriptUsage;
  /** Message id. Default `msg_test`. */
  id?: string;
  /** Model echoed in `message_start`. Default `claude-test`. */
  model?: string;
  /** Send `ping` after `message_start` and between blocks, as the API does. Default true. */
  pings?: boolean;
}

/** Encodes one event exactly as the API writes it: `event: <name>\ndata: <one-line JSON>\n\n`. */
export function encodeSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

function blockEvents(block: ScriptBlock, index: number): SseEvent[] {
  const delta = (d: Record<string, unknown>): SseEvent => ({
    event: 'content_block_delta',
    data: { type: 'content_block_delta', index, delta: d },
  });
  const start = (content_block: Record<string, unknown>): SseEvent => ({
    event: 'content_block_start',
    data: { type: 'content_block_start', index, content_block },
  });
  const out: SseEvent[] = [];
  if ('text' in block) {
    out.push(start({ type: 'text', text: '' }));
    for (const text of block.text) out.push(delta({ type: 'text_delta', text }));
  } else if ('toolUse' in block) {
    out.push(start({ type: 'tool_use', id: block.toolUse.id, name: block.toolUse.name, input: {} }));
    for (const partial_json of block.toolUse.inputChunks) out.push(delta({ type: 'input_json_delta', partial_json }));
  } else if ('thinking' in block) {
    out.push(start({ type: 'thinking', thinking: '', signature: '' }));
    for (const thinking of block.thinking) out.push(delta({ type: 'thinking_delta', thinking }));
    out.push(delta({ type: 'signature_delta', signature: block.signature }));
  } else {
    out.push(start({ type: 'redacted_thinking', data: block.redactedThinking }));
  }
  out.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  return out;
}

/** The full event sequence of one streamed answer. */
export function answerEvents(script: AnswerScript): SseEvent[] {
  const usage = script.usage ?? {};
  const pings = script.pings ?? true;
  const stopReason = script.stopReason ?? (script.blocks.some((b) => 'toolUse' in b) ? 'tool_use' : 'end_turn');
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: script.id ?? 'msg_test',
          type: 'message',
          role: 'assistant',
          model: script.model ?? 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: usage.input_tokens ?? 10,
            cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
            cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
            output_tokens: 1,
          },
        },
      },
    },
  ];
  script.blocks.forEach((block, index) => {
    if (pings) events.push({ event: 'ping', data: { type: 'ping' } });
    events.push(...blockEvents(block, index));
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens ?? 5 },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

/** An `event: error` as the API sends it in the middle of a stream. */
export function errorEvent(type: string, message: string): SseEvent {
  return { event: 'error', data: { type: 'error', error: { type, message } } };
}

/** The JSON body of an Anthropic error response. */
export function errorBody(type: string, message: string): { type: 'error'; error: { type: string; message: string } } {
  return { type: 'error', error: { type, message } };
}
