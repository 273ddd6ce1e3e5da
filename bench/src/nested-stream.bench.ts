/**
 * One stream for the run tree (issue 51), with scripted models (no network):
 * - the outer agent's stream, per event of an agent it uses as a tool, against that nested agent's
 *   own stream per event (the floor: the same agent streamed directly), in paired rounds of the same
 *   run (median and range of the per-round ratios); target ≤ 1.2x;
 * - `invoke()` of a graph whose node uses agents as tools, nobody listening: µs and heap bytes per
 *   run (run this file on main and on the branch to compare; nobody listening must cost the same).
 * Run: node --conditions=@skein/source --expose-gc --max-semi-space-size=256 --import tsx bench/src/nested-stream.bench.ts
 */
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { table, usPerOp } from './measure.js';

const TEXT = 'Looking up order 42 and checking the refund rules for it. '.repeat(8);

/** A nested agent that streams `TEXT` one small chunk per event. */
const nested = (name: string): Agent =>
  new Agent({
    name,
    model: new ScriptedModel([{ text: TEXT }], {
      loop: true,
      record: false,
      chunkSize: 4,
    }),
    retryStrategy: null,
  });

const outer = (inner: Agent): Agent =>
  new Agent({
    name: 'billing',
    model: new ScriptedModel([{ toolUses: [{ name: inner.name, input: { input: 'order 42' } }] }, 'Done.'], {
      loop: true,
      record: false,
    }),
    tools: [inner.asTool()],
    retryStrategy: null,
  });

async function drain(gen: AsyncGenerator<unknown, unknown>): Promise<number> {
  let n = 0;
  for await (const _ of gen) n++;
  return n;
}

/** Rounds of the pair (own stream, then outer stream), so that a loaded machine's drift hits both alike. */
const ROUNDS = 9;

/** This process's CPU µs per call of `fn` (user + system): on a machine shared with other work, waiting for a core is not counted. */
async function cpuUsPerOp(fn: () => Promise<unknown>, iterations: number): Promise<number> {
  for (let i = 0; i < 50; i++) await fn();
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / iterations;
}

async function perEvent(): Promise<(string | number)[]> {
  const own = nested('refund');
  const ownEvents = await drain(own.stream('order 42'));
  const parent = outer(nested('refund'));
  let nestedEvents = 0;
  for await (const e of parent.stream('refund 42')) if (e.type === 'toolStream') nestedEvents++;
  const pairs: { ownPer: number; outerPer: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const ownUs = await cpuUsPerOp(() => drain(own.stream('order 42')), 200);
    const parentUs = await cpuUsPerOp(() => drain(parent.stream('refund 42')), 200);
    // The whole outer run per nested event (its own two model calls and the tool call included: an upper bound).
    pairs.push({ ownPer: ownUs / ownEvents, outerPer: parentUs / nestedEvents });
  }
  const ratios = pairs.map((p) => p.outerPer / p.ownPer).sort((a, b) => a - b);
  const mid = pairs.sort((a, b) => a.outerPer / a.ownPer - b.outerPer / b.ownPer)[ROUNDS >> 1] as {
    ownPer: number;
    outerPer: number;
  };
  const range = `${(ratios[0] ?? 0).toFixed(2)}-${(ratios.at(-1) ?? 0).toFixed(2)}`;
  return [
    'nested event, outer stream vs own stream',
    nestedEvents,
    mid.ownPer,
    mid.outerPer,
    ratios[ROUNDS >> 1] ?? 0,
    range,
  ];
}

function graphWithNestedTools(): ReturnType<GraphBuilder['build']> {
  return new GraphBuilder()
    .addNode(outer(nested('refund')), 'billing')
    .addNode(outer(nested('audit')), 'audit')
    .addEdge('billing', 'audit')
    .build();
}

async function quietGraph(): Promise<(string | number)[]> {
  const graph = graphWithNestedTools();
  const us = await usPerOp(() => graph.invoke('refund 42'), 100);
  const gc = (globalThis as { gc?: () => void }).gc;
  const runs = 200;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < runs; i++) await graph.invoke('refund 42');
  const bytes = (process.memoryUsage().heapUsed - before) / runs;
  return ['graph.invoke() with agents as tools, unobserved', runs, us, bytes, gc ? 'gc' : 'no --expose-gc'];
}

table([
  ['case', 'events', 'own CPU µs/event', 'outer CPU µs/event', 'median ratio', `range (${ROUNDS} paired rounds)`],
  await perEvent(),
]);
console.log('');
table([['case', 'runs', 'µs/run', 'heap bytes/run', ''], await quietGraph()]);
