/**
 * AnthropicModel's own overhead per streamed event: the real SDK reads a 2,000-delta answer from
 * the loopback server, once raw (the floor: `client.messages.create({ stream: true })` iterated
 * directly) and once through `AnthropicModel.stream()` (translation to core events, usage, stop).
 */
import Anthropic from '@anthropic-ai/sdk';
import { AnthropicModel, type AnthropicClient } from '@skein/model-anthropic';
import { AnthropicTestServer, answerEvents } from '@skein/model-anthropic/testing';
import type { ModelRequest } from '@skein/core';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { table, usPerOp } from './measure.js';

const DELTAS = 2_000;
const RESPONSES_PER_ROUND = 5;
const ROUNDS = 25;

const text = Array.from({ length: DELTAS }, (_, i) => `tok${i} `);
const events = answerEvents({ blocks: [{ text }], pings: false });
const serverEvents = events.length; // every event the SDK parses and hands on
const server = await AnthropicTestServer.start({ record: false, loop: true });
server.enqueue({ events });

const client = new Anthropic({ apiKey: 'dummy', baseURL: server.url, maxRetries: 0 });
const model = new AnthropicModel({ client });
const request: ModelRequest = { messages: [{ role: 'user', content: [{ text: 'Count.' }] }] };

let sink = 0;
async function raw(): Promise<void> {
  const stream = await client.messages.create({
    model: model.modelId,
    max_tokens: 4096,
    messages: [{ role: 'user', content: 'Count.' }],
    stream: true,
  });
  for await (const event of stream) if (event.type === 'content_block_delta') sink++;
}
async function throughModel(): Promise<void> {
  for await (const event of model.stream(request)) if ('contentBlockDelta' in event) sink++;
}

// The same events already parsed, from memory: isolates the translation from SSE parsing and I/O.
const parsed = events.map((e) => e.data as RawMessageStreamEvent);
async function* replay(): AsyncGenerator<RawMessageStreamEvent> {
  for (const event of parsed) yield event;
}
const memoryClient = { messages: { create: async () => replay() } } as unknown as AnthropicClient;
const memoryModel = new AnthropicModel({ client: memoryClient });
async function memoryRaw(): Promise<void> {
  for await (const event of replay()) if (event.type === 'content_block_delta') sink++;
}
async function memoryThroughModel(): Promise<void> {
  for await (const event of memoryModel.stream(request)) if ('contentBlockDelta' in event) sink++;
}

// Warm both paths up first (JIT, keep-alive sockets), then alternate them so drift on the shared
// machine hits both alike, in many short rounds; keep the best round of each.
for (let i = 0; i < 40; i++) {
  await raw();
  await throughModel();
  await memoryRaw();
  await memoryThroughModel();
}
let rawUs = Infinity;
let modelUs = Infinity;
let memRawUs = Infinity;
let memModelUs = Infinity;
for (let i = 0; i < ROUNDS; i++) {
  rawUs = Math.min(rawUs, await usPerOp(raw, RESPONSES_PER_ROUND, 1));
  modelUs = Math.min(modelUs, await usPerOp(throughModel, RESPONSES_PER_ROUND, 1));
  memRawUs = Math.min(memRawUs, await usPerOp(memoryRaw, RESPONSES_PER_ROUND * 4, 1));
  memModelUs = Math.min(memModelUs, await usPerOp(memoryThroughModel, RESPONSES_PER_ROUND * 4, 1));
}
await server.close();

const perEvent = (us: number): number => us / serverEvents;
console.log(
  `${DELTAS} text deltas per response (${serverEvents} SSE events), real SDK against the loopback server; sink=${sink}`,
);
table([
  ['path', 'ms/response', 'µs/event', 'ratio'],
  ['raw SDK stream (floor)', rawUs / 1000, perEvent(rawUs), 1],
  ['AnthropicModel.stream', modelUs / 1000, perEvent(modelUs), modelUs / rawUs],
  ['in-memory events, bare loop (floor)', memRawUs / 1000, perEvent(memRawUs), 1],
  ['in-memory events, AnthropicModel', memModelUs / 1000, perEvent(memModelUs), memModelUs / memRawUs],
]);
console.log(`AnthropicModel overhead on the wire: ${(perEvent(modelUs) - perEvent(rawUs)).toFixed(3)} µs/event`);
console.log(`AnthropicModel translation alone: ${(perEvent(memModelUs) - perEvent(memRawUs)).toFixed(3)} µs/event`);
