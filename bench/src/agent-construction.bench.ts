/**
 * What one `new Agent(...)` costs: time and retained heap per agent, building 1,000 agents with 5 zod
 * tools each (the schemas and callbacks defined once, as module-level code does; one model instance
 * shared, as a server shares its client). Two shapes:
 * - tools built per agent (`tool({...})` inside the request handler, then `new Agent`);
 * - tools built once, only `new Agent` per request.
 * The floor, in the same run: plain objects holding the same things (per-agent tool objects with name,
 * description, schema and callback; an agent object with model, prompt, tools and an empty history).
 * Heap is measured after `gc()` with all 1,000 agents kept alive (run with `--expose-gc`, as run-all does).
 *
 * It measures the built `@skein/core` (packages/core/dist: run `npm run build` first), what users run:
 * the source condition runs TypeScript through tsx, whose keep-names wrapper defines a `name` on
 * every closure it creates and so adds about 3 KB and a few µs per agent that users never pay.
 * `SKEIN_BENCH_CORE_DIST=<dir>` measures another build of core (an older commit's dist) instead.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type * as Core from '@skein/core';
import type { AgentTool } from '@skein/core';
import { table } from './measure.js';

// SKEIN_BENCH_CORE_DIST=/path/to/another/core/dist measures another build (e.g. an older commit's) against the same floor.
const other = process.env['SKEIN_BENCH_CORE_DIST'];
const dist = other
  ? new URL(`file://${other.replace(/\/?$/, '/')}`)
  : new URL('../../packages/core/dist/', import.meta.url);
if (!existsSync(fileURLToPath(new URL('index.js', dist))))
  throw new Error('agent-construction measures the built core: run `npm run build` first');
const { Agent, tool } = (await import(new URL('index.js', dist).href)) as typeof Core;
const { ScriptedModel } = (await import(
  new URL('testing/index.js', dist).href
)) as typeof import('@skein/core/testing');

const AGENTS = 1_000;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc)
  throw new Error(
    'agent-construction needs --expose-gc (npm run bench --workspace bench -- agent-construction passes it)',
  );

const schemas = [
  z.object({ city: z.string().describe('City name'), unit: z.enum(['c', 'f']).optional() }),
  z.object({ expression: z.string().describe('An arithmetic expression') }),
  z.object({ query: z.string(), limit: z.number().int().min(1).max(50).default(10) }),
  z.object({ orderId: z.string(), amount: z.number().positive(), reason: z.string().optional() }),
  z.object({ to: z.string().email(), subject: z.string(), body: z.string() }),
];
const names = ['weather', 'calculator', 'search', 'refund', 'email'];
const callback = (input: unknown): string => JSON.stringify(input);
const model = new ScriptedModel([], { record: false });
const systemPrompt = 'You are a helpful assistant.';

function skeinTools(): AgentTool[] {
  return schemas.map((inputSchema, i) =>
    tool({ name: names[i] as string, description: `The ${names[i]} tool`, inputSchema, callback }),
  );
}
const sharedTools = skeinTools();

interface FloorTool {
  name: string;
  description: string;
  inputSchema: z.ZodType;
  callback: (input: unknown) => string;
}
function floorTools(): FloorTool[] {
  return schemas.map((inputSchema, i) => ({
    name: names[i] as string,
    description: `The ${names[i]} tool`,
    inputSchema,
    callback,
  }));
}
const sharedFloorTools = floorTools();

const shapes: Record<string, () => unknown> = {
  'skein, tools per agent': () => new Agent({ model, systemPrompt, tools: skeinTools() }),
  'floor, tools per agent': () => ({ model, systemPrompt, tools: floorTools(), messages: [], state: {} }),
  'skein, shared tools': () => new Agent({ model, systemPrompt, tools: sharedTools }),
  'floor, shared tools': () => ({ model, systemPrompt, tools: [...sharedFloorTools], messages: [], state: {} }),
};

let kept: unknown[] | undefined;

/** Builds `AGENTS` agents into `kept`; returns µs per agent. */
function build(make: () => unknown): number {
  const out: unknown[] = new Array(AGENTS);
  const start = process.hrtime.bigint();
  for (let i = 0; i < AGENTS; i++) out[i] = make();
  const us = Number(process.hrtime.bigint() - start) / 1_000 / AGENTS;
  kept = out;
  return us;
}

function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Best-of-rounds µs per agent, and the median of bytes retained per agent (heap after gc, agents alive, minus the array slot). */
function measure(make: () => unknown): { us: number; bytes: number } {
  for (let i = 0; i < 5_000; i++) make(); // warm up the JIT until optimized code stops being allocated (and any per-schema cache, as a running server has)
  let us = Infinity;
  const bytes: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    kept = undefined;
    const before = heapAfterGc();
    us = Math.min(us, build(make));
    bytes.push((heapAfterGc() - before) / AGENTS - 8);
  }
  kept = undefined;
  bytes.sort((a, b) => a - b);
  return { us, bytes: bytes[Math.floor(bytes.length / 2)] as number };
}

const results = Object.fromEntries(Object.entries(shapes).map(([name, make]) => [name, measure(make)]));
const rows: (string | number)[][] = [
  ['shape (1,000 agents, 5 zod tools each)', 'µs/agent', 'bytes/agent', 'µs vs floor', 'bytes vs floor'],
];
for (const [name, r] of Object.entries(results)) {
  const floor = results[name.startsWith('skein') ? name.replace('skein', 'floor') : name] as {
    us: number;
    bytes: number;
  };
  rows.push([name, r.us, Math.round(r.bytes), (r.us / floor.us).toFixed(1), (r.bytes / floor.bytes).toFixed(1)]);
}
console.log(
  `time: best of ${ROUNDS} rounds; heap: median of ${ROUNDS} rounds, measured after gc with the agents alive`,
);
table(rows);
