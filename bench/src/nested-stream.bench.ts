/**
 * One stream for the run tree (issue 51), with scripted models (no network):
 * - the outer agent's stream, per event of an agent it uses as a tool, against that nested agent's
 *   own stream per event (the floor: the same agent streamed directly), in paired rounds of the same
 *   run (median and range of the per-round ratios); target ≤ 1.2x;
 * - `invoke()` of a graph whose node uses agents as tools, nobody listening: CPU µs and heap bytes per
 *   run (`--graph-only` runs it alone, also on code from before issue 51: nobody listening must cost the same).
 * Run: node --conditions=@skein/source --expose-gc --max-semi-space-size=256 --import tsx bench/src/nested-stream.bench.ts
 */
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { table } from './measure.js';

const TEXT = 'Looking up order 42 and checking the refund rules for it. '.repeat(8);

/** A nested agent that streams `text` one small chunk per event. */
const nested = (name: string, text = TEXT): Agent =>
  new Agent({
    name,
    model: new ScriptedModel([{ text }], {
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

/** Events of the own stream, and nested (`toolStream`) events of the outer stream. */
async function counts(own: Agent, parent: Agent): Promise<{ own: number; nested: number }> {
  const ownEvents = await drain(own.stream('order 42'));
  let nestedEvents = 0;
  for await (const e of parent.stream('refund 42')) if (e.type === 'toolStream') nestedEvents++;
  return { own: ownEvents, nested: nestedEvents };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const range = (values: number[]): string => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;

/**
 * Per round: the nested agent streamed on its own and through the outer agent, with the long text
 * and with one chunk. "Whole run" divides the outer run by its nested events (its own two model
 * calls and the tool call included: an upper bound); "marginal" is what one more nested event costs
 * (long minus short, per extra event) on each side: the cost of the hand-over itself.
 */
async function perEvent(): Promise<(string | number)[][]> {
  const own = nested('refund');
  const ownShort = nested('refund', 'ok');
  const parent = outer(nested('refund'));
  const parentShort = outer(nested('refund', 'ok'));
  const long = await counts(own, parent);
  const short = await counts(ownShort, parentShort);
  const whole = { own: [] as number[], outer: [] as number[], ratio: [] as number[] };
  const marginal = { own: [] as number[], outer: [] as number[], ratio: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const ownUs = await cpuUsPerOp(() => drain(own.stream('order 42')), 200);
    const parentUs = await cpuUsPerOp(() => drain(parent.stream('refund 42')), 200);
    const ownShortUs = await cpuUsPerOp(() => drain(ownShort.stream('order 42')), 200);
    const parentShortUs = await cpuUsPerOp(() => drain(parentShort.stream('refund 42')), 200);
    whole.own.push(ownUs / long.own);
    whole.outer.push(parentUs / long.nested);
    whole.ratio.push(parentUs / long.nested / (ownUs / long.own));
    const ownMore = (ownUs - ownShortUs) / (long.own - short.own);
    const outerMore = (parentUs - parentShortUs) / (long.nested - short.nested);
    marginal.own.push(ownMore);
    marginal.outer.push(outerMore);
    marginal.ratio.push(outerMore / ownMore);
  }
  return [
    [
      'nested event, whole outer run per event',
      long.nested,
      median(whole.own),
      median(whole.outer),
      median(whole.ratio),
      range(whole.ratio),
    ],
    [
      'nested event, marginal',
      long.nested - short.nested,
      median(marginal.own),
      median(marginal.outer),
      median(marginal.ratio),
      range(marginal.ratio),
    ],
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
  const us = await cpuUsPerOp(() => graph.invoke('refund 42'), 300);
  const gc = (globalThis as { gc?: () => void }).gc;
  const runs = 200;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < runs; i++) await graph.invoke('refund 42');
  const bytes = (process.memoryUsage().heapUsed - before) / runs;
  return ['graph.invoke() with agents as tools, unobserved', runs, us, bytes, gc ? 'gc' : 'no --expose-gc'];
}

// `--graph-only`: the unobserved graph alone (it runs on code from before issue 51 too, to compare).
if (!process.argv.includes('--graph-only')) {
  table([
    ['case', 'events', 'own CPU µs/event', 'outer CPU µs/event', 'median ratio', `range (${ROUNDS} paired rounds)`],
    ...(await perEvent()),
  ]);
  console.log('');
}
table([['case', 'runs', 'CPU µs/run', 'heap bytes/run', ''], await quietGraph()]);
