/**
 * OpenAIModel's own overhead per streamed chunk: the real SDK reads a 2,000-delta answer from the
 * loopback Chat Completions server, once raw (the floor: `client.chat.completions.create({ stream:
 * true })` iterated directly) and once through `OpenAIModel.stream()` (translation to core events,
 * usage, stop). Alternating short rounds, best of each.
 * Run: cd /work/main && node --conditions=@skein/source --import tsx bench/src/model-openai.bench.ts
 */
import OpenAI from 'openai';
import type { ModelRequest } from '@skein/core';
import { OpenAIModel } from '@skein/model-openai';
import { chatChunks, OpenAITestServer } from '@skein/model-openai/testing';
import { table, usPerOp } from './measure.js';

const DELTAS = 2_000;
const ROUNDS = 25;
const chunks = chatChunks({ text: Array.from({ length: DELTAS }, (_, i) => `tok${i} `) });
const server = await OpenAITestServer.start();
const reply = (): { chunks: typeof chunks } => ({ chunks });
const client = new OpenAI({ apiKey: 'dummy', baseURL: server.url, maxRetries: 0 });
const model = new OpenAIModel({ client, modelId: 'bench' });
const request: ModelRequest = { messages: [{ role: 'user', content: [{ text: 'Count.' }] }] };

let sink = 0;
async function raw(): Promise<void> {
  server.enqueue(reply);
  const stream = await client.chat.completions.create({ model: 'bench', messages: [{ role: 'user', content: 'Count.' }], stream: true, stream_options: { include_usage: true } });
  for await (const chunk of stream) if (chunk.choices[0]?.delta.content) sink++;
}
async function throughModel(): Promise<void> {
  server.enqueue(reply);
  for await (const event of model.stream(request)) if ('contentBlockDelta' in event) sink++;
}

for (let i = 0; i < 20; i++) {
  await raw();
  await throughModel();
}
let rawUs = Infinity;
let modelUs = Infinity;
for (let round = 0; round < ROUNDS; round++) {
  rawUs = Math.min(rawUs, await usPerOp(raw, 3));
  modelUs = Math.min(modelUs, await usPerOp(throughModel, 3));
}
await server.close();
console.log(`OpenAIModel: ${chunks.length} chunks per answer over loopback HTTP (best of ${ROUNDS} rounds)`);
table([
  ['path', 'µs per answer', 'µs per chunk', 'ratio'],
  ['raw SDK stream (floor)', rawUs, rawUs / chunks.length, 1],
  ['OpenAIModel.stream()', modelUs, modelUs / chunks.length, modelUs / rawUs],
  ['overhead', modelUs - rawUs, (modelUs - rawUs) / chunks.length, ''],
]);
if (sink < 0) console.log(sink);
