/**
 * OpenAIModel's own overhead per streamed chunk or event: the real SDK reads a 2,000-delta answer
 * from the loopback server, once raw (the floor: the SDK's stream iterated directly) and once through
 * `OpenAIModel.stream()` (translation to core events, usage, stop), for Chat Completions
 * (`client.chat.completions.create({ stream: true })`) and the Responses API
 * (`client.responses.create({ stream: true })`, `api: 'responses'`). Alternating short rounds, best of each.
 * Run: cd /work/main && node --conditions=@skein/source --import tsx bench/src/model-openai.bench.ts
 */
import OpenAI from 'openai';
import type { ModelRequest } from '@skein/core';
import { OpenAIModel } from '@skein/model-openai';
import { chatChunks, OpenAITestServer, responseEvents, type Chunk } from '@skein/model-openai/testing';
import { table, usPerOp } from './measure.js';

const DELTAS = 2_000;
const ROUNDS = 12;
const words = Array.from({ length: DELTAS }, (_, i) => `tok${i} `);
const server = await OpenAITestServer.start();
const client = new OpenAI({ apiKey: 'dummy', baseURL: server.url, maxRetries: 0 });
const request: ModelRequest = { messages: [{ role: 'user', content: [{ text: 'Count.' }] }] };

let sink = 0;

interface Case {
  name: string;
  units: string;
  stream: Chunk[];
  raw: () => Promise<void>;
  model: OpenAIModel;
}

const chat: Case = {
  name: 'Chat Completions',
  units: 'chunk',
  stream: chatChunks({ text: words }),
  model: new OpenAIModel({ client, modelId: 'bench' }),
  raw: async () => {
    const stream = await client.chat.completions.create({
      model: 'bench',
      messages: [{ role: 'user', content: 'Count.' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) sink++;
  },
};
const responses: Case = {
  name: 'Responses API',
  units: 'event',
  stream: responseEvents({ text: words }),
  model: new OpenAIModel({ client, modelId: 'bench', api: 'responses' }),
  raw: async () => {
    const stream = await client.responses.create({ model: 'bench', input: 'Count.', stream: true, store: false });
    for await (const event of stream) if (event.type === 'response.output_text.delta') sink++;
  },
};

async function measure(c: Case): Promise<void> {
  const raw = async (): Promise<void> => {
    server.enqueue({ chunks: c.stream });
    await c.raw();
  };
  const throughModel = async (): Promise<void> => {
    server.enqueue({ chunks: c.stream });
    for await (const event of c.model.stream(request)) if ('contentBlockDelta' in event) sink++;
  };
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
  const n = c.stream.length;
  console.log(`\nOpenAIModel, ${c.name}: ${n} ${c.units}s per answer over loopback HTTP (best of ${ROUNDS} rounds)`);
  table([
    ['path', 'µs per answer', `µs per ${c.units}`, 'ratio'],
    ['raw SDK stream (floor)', rawUs, rawUs / n, 1],
    ['OpenAIModel.stream()', modelUs, modelUs / n, modelUs / rawUs],
    ['overhead', modelUs - rawUs, (modelUs - rawUs) / n, ''],
  ]);
}

await measure(chat);
await measure(responses);
await server.close();
if (sink < 0) console.log(sink);
