/**
 * Builders of Responses API stream events in the shape OpenAI sends them: `response.created`,
 * `response.in_progress`, then per output item `response.output_item.added`, its part and delta
 * events and `response.output_item.done` (a reasoning summary, a message with `output_text`,
 * `function_call`s with argument fragments), then `response.completed` (or `response.incomplete` /
 * `response.failed`) carrying the whole response with usage. Every event has a `sequence_number`.
 */
import type { Chunk } from './chat-chunks.js';

/** A function call the scripted response makes. */
export interface ResponseToolCall {
  callId: string;
  name: string;
  /** The JSON arguments, in the fragments the server sends. */
  args: string[];
}

/** What a scripted response holds, in the order OpenAI sends it: reasoning, text, function calls; then how it ends. */
export interface ResponseScript {
  /** Reasoning summary deltas (one summary part). */
  reasoning?: string[];
  text?: string[];
  toolCalls?: ResponseToolCall[];
  /** Send the calls' argument fragments interleaved (round-robin) instead of one call after the other. */
  interleave?: boolean;
  /** End with `response.incomplete` for this reason instead of `response.completed`. */
  incomplete?: 'max_output_tokens' | 'content_filter';
  /** End with `response.failed` carrying this error instead. */
  failed?: { code: string; message: string };
  usage?: { input_tokens: number; output_tokens: number; cached_tokens?: number; reasoning_tokens?: number } | null;
}

type Item = Record<string, unknown>;

/** One output item: its final form, and the events between its `added` and `done` (for calls: the deltas, then the `.done`). */
interface Output {
  item: Item;
  deltas: Chunk[];
  after: Chunk[];
}

function reasoningItem(parts: string[], output_index: number): Output {
  const id = `rs_${output_index}`;
  const text = parts.join('');
  const part = { type: 'summary_text', text: '' };
  return {
    item: { id, type: 'reasoning', summary: [{ type: 'summary_text', text }] },
    deltas: [
      { type: 'response.reasoning_summary_part.added', item_id: id, output_index, summary_index: 0, part },
      ...parts.map((delta) => ({
        type: 'response.reasoning_summary_text.delta',
        item_id: id,
        output_index,
        summary_index: 0,
        delta,
      })),
    ],
    after: [
      { type: 'response.reasoning_summary_text.done', item_id: id, output_index, summary_index: 0, text },
      {
        type: 'response.reasoning_summary_part.done',
        item_id: id,
        output_index,
        summary_index: 0,
        part: { ...part, text },
      },
    ],
  };
}

function messageItem(parts: string[], output_index: number): Output {
  const id = `msg_${output_index}`;
  const text = parts.join('');
  const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
  return {
    item: { id, type: 'message', status: 'completed', role: 'assistant', content: [{ ...part, text }] },
    deltas: [
      { type: 'response.content_part.added', item_id: id, output_index, content_index: 0, part },
      ...parts.map((delta) => ({
        type: 'response.output_text.delta',
        item_id: id,
        output_index,
        content_index: 0,
        delta,
        logprobs: [],
      })),
    ],
    after: [
      { type: 'response.output_text.done', item_id: id, output_index, content_index: 0, text, logprobs: [] },
      { type: 'response.content_part.done', item_id: id, output_index, content_index: 0, part: { ...part, text } },
    ],
  };
}

function callItem(call: ResponseToolCall, output_index: number): Output {
  const id = `fc_${output_index}`;
  const args = call.args.join('');
  return {
    item: { id, type: 'function_call', status: 'completed', arguments: args, call_id: call.callId, name: call.name },
    deltas: call.args.map((delta) => ({
      type: 'response.function_call_arguments.delta',
      item_id: id,
      output_index,
      delta,
    })),
    after: [
      { type: 'response.function_call_arguments.done', item_id: id, output_index, name: call.name, arguments: args },
    ],
  };
}

function outputsOf(script: ResponseScript): Output[] {
  const out: Output[] = [];
  if (script.reasoning) out.push(reasoningItem(script.reasoning, out.length));
  if (script.text) out.push(messageItem(script.text, out.length));
  for (const call of script.toolCalls ?? []) out.push(callItem(call, out.length));
  return out;
}

function response(status: string, output: Item[], script: ResponseScript, model: string, id: string): Item {
  const u = script.usage === undefined ? { input_tokens: 10, output_tokens: 5 } : script.usage;
  return {
    id,
    object: 'response',
    created_at: 1_700_000_000,
    status,
    background: false,
    error: status === 'failed' ? (script.failed ?? null) : null,
    incomplete_details: status === 'incomplete' ? { reason: script.incomplete } : null,
    instructions: null,
    max_output_tokens: null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    store: false,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage:
      status === 'in_progress' || u === null
        ? null
        : {
            input_tokens: u.input_tokens,
            input_tokens_details: { cached_tokens: u.cached_tokens ?? 0 },
            output_tokens: u.output_tokens,
            output_tokens_details: { reasoning_tokens: u.reasoning_tokens ?? 0 },
            total_tokens: u.input_tokens + u.output_tokens,
          },
    metadata: {},
  };
}

/** The item as `response.output_item.added` shows it: not done yet, nothing in it. */
function added(item: Item, output_index: number): Chunk {
  const empty =
    item['type'] === 'function_call'
      ? { arguments: '' }
      : item['type'] === 'message'
        ? { content: [] }
        : { summary: [] };
  return {
    type: 'response.output_item.added',
    output_index,
    item: { ...item, ...empty, ...('status' in item ? { status: 'in_progress' } : {}) },
  };
}

/** A well-formed event sequence for `script`, numbered from 0. */
export function responseEvents(script: ResponseScript, id = 'resp_test', model = 'gpt-test'): Chunk[] {
  const outputs = outputsOf(script);
  const events: Chunk[] = [
    { type: 'response.created', response: response('in_progress', [], script, model, id) },
    { type: 'response.in_progress', response: response('in_progress', [], script, model, id) },
  ];
  const done = (o: Output, i: number): Chunk => ({ type: 'response.output_item.done', output_index: i, item: o.item });
  const interleaved = outputs
    .map((o, i) => ({ o, i }))
    .filter(({ o }) => script.interleave === true && o.item['type'] === 'function_call');
  outputs.forEach((o, i) => {
    if (!interleaved.some((c) => c.i === i)) events.push(added(o.item, i), ...o.deltas, ...o.after, done(o, i));
  });
  events.push(...interleaved.map(({ o, i }) => added(o.item, i)));
  for (let k = 0; interleaved.some(({ o }) => k < o.deltas.length); k++)
    for (const { o } of interleaved) events.push(...o.deltas.slice(k, k + 1));
  for (const { o, i } of interleaved) events.push(...o.after, done(o, i));
  const output = outputs.map((o) => o.item);
  const end = script.failed ? 'failed' : script.incomplete ? 'incomplete' : 'completed';
  events.push({ type: `response.${end}`, response: response(end, output, script, model, id) });
  return events.map((e, sequence_number) => ({ ...e, sequence_number }));
}

/** Encodes events exactly as the Responses API writes them: `event: <type>` and `data: <json>` lines, a blank line after each; no `[DONE]`. */
export function encodeResponseEvents(events: readonly Chunk[]): string {
  return events.map((e) => `event: ${String(e['type'])}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}
