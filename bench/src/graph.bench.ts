/**
 * Graph orchestration overhead and persistence cost, with scripted models (no network):
 * - µs of overhead per node for a 50-node chain and a 1 -> 32 -> 1 fan-out, against a floor that
 *   calls the same agents directly (a loop for the chain, Promise.all for the fan-out);
 * - the cost of persisting one node as the run's history grows (InMemorySessionRepository and
 *   FileSessionRepository): µs per node in the first and the last tenth of a long chain.
 * Run: cd /work/main && node --conditions=@skein/source --import tsx bench/src/graph.bench.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  AfterNodeCallEvent,
  Agent,
  InMemorySessionRepository,
  RepositorySessionManager,
  type Model,
  type SessionRepository,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder, type Graph } from '@skein/graph';
import { FileSessionRepository } from '@skein/session-file';
import { table, usPerOp } from './measure.js';

const agent = (name: string): Agent =>
  new Agent({ name, model: new ScriptedModel(['ok'], { loop: true, record: false }), retryStrategy: null });

/** A model with no await between its events (a cache, a canned answer): nodes finish in the same tick. */
const zeroLatency: Model = {
  modelId: 'zero-latency',
  async *stream() {
    yield { messageStart: { role: 'assistant' } };
    yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'ok' } } };
    yield { contentBlockStop: { contentBlockIndex: 0 } };
    yield { messageStop: { stopReason: 'end_turn' } };
  },
};
const zeroAgent = (name: string): Agent => new Agent({ name, model: zeroLatency, retryStrategy: null });

async function chainBench(n: number): Promise<(string | number)[]> {
  const graphAgents = Array.from({ length: n }, (_, i) => agent(`n${i}`));
  const builder = new GraphBuilder();
  graphAgents.forEach((a, i) => {
    builder.addNode(a);
    if (i > 0) builder.addEdge(`n${i - 1}`, `n${i}`);
  });
  const graph = builder.build();
  const floorAgents = Array.from({ length: n }, (_, i) => agent(`n${i}`));
  const floor = async (): Promise<void> => {
    let previous = '';
    for (const a of floorAgents)
      previous = String(await a.invoke(previous ? `Original Task: task\nFrom prev: ${previous}` : 'task'));
  };
  const floorUs = await usPerOp(floor, 20);
  const graphUs = await usPerOp(() => graph.invoke('task'), 20);
  return [`chain of ${n}`, floorUs / n, graphUs / n, (graphUs - floorUs) / n, graphUs / floorUs];
}

async function fanOutBench(width: number, zero = false): Promise<(string | number)[]> {
  const node = zero ? zeroAgent : agent;
  const make = (): { root: Agent; workers: Agent[]; sink: Agent } => ({
    root: node('root'),
    workers: Array.from({ length: width }, (_, i) => node(`w${i}`)),
    sink: node('sink'),
  });
  const g = make();
  const builder = new GraphBuilder().addNode(g.root).addNode(g.sink);
  for (const w of g.workers) builder.addNode(w).addEdge('root', w.name);
  builder.addEdge(
    g.workers.map((w) => w.name),
    'sink',
  );
  const graph = builder.build();
  const f = make();
  const floor = async (): Promise<void> => {
    const r = String(await f.root.invoke('task'));
    const outs = await Promise.all(f.workers.map((w) => w.invoke(`Original Task: task\nFrom root: ${r}`)));
    await f.sink.invoke(`Original Task: task\n${outs.map(String).join('\n')}`);
  };
  const nodes = width + 2;
  const check = await graph.invoke('task');
  if (check.status !== 'completed' || check.executionOrder.length !== nodes)
    throw new Error(`The fan-out ran ${check.executionOrder.length} of ${nodes} nodes (${check.status}).`);
  const floorUs = await usPerOp(floor, 20);
  const graphUs = await usPerOp(() => graph.invoke('task'), 20);
  return [
    `1 -> ${width} -> 1${zero ? ' (zero-latency models)' : ''}`,
    floorUs / nodes,
    graphUs / nodes,
    (graphUs - floorUs) / nodes,
    graphUs / floorUs,
  ];
}

/** µs per node over the first and the last tenth of one long persisted chain. */
async function persistBench(
  label: string,
  repository: SessionRepository | undefined,
  n: number,
): Promise<(string | number)[]> {
  const builder = new GraphBuilder().setId('bench');
  if (repository)
    builder.setSessionManager(
      new RepositorySessionManager({ sessionId: `bench-${label.replace(/\W+/g, '-')}`, repository }),
    );
  for (let i = 0; i < n; i++) {
    builder.addNode(agent(`n${i}`));
    if (i > 0) builder.addEdge(`n${i - 1}`, `n${i}`);
  }
  const graph: Graph = builder.build();
  const stamps: bigint[] = [];
  graph.hooks.addCallback(AfterNodeCallEvent, () => void stamps.push(process.hrtime.bigint()));
  await graph.invoke('task');
  const tenth = Math.floor(n / 10);
  const window = (from: number): number =>
    Number((stamps[from + tenth] as bigint) - (stamps[from] as bigint)) / 1_000 / tenth;
  const first = window(1);
  const last = window(n - tenth - 1);
  return [label, n, first, last, last / first];
}

console.log('Orchestration overhead per node (scripted model; floor = the same agents called directly)');
table([
  ['shape', 'floor µs/node', 'graph µs/node', 'overhead µs/node', 'ratio'],
  await chainBench(50),
  await fanOutBench(32),
  await fanOutBench(32, true),
]);

console.log('\nPersisting one node as the history grows (µs per node, first vs last tenth of one run)');
const dir = await mkdtemp(path.join(os.tmpdir(), 'skein-graph-bench-'));
const files = new FileSessionRepository({ storageDir: dir });
try {
  table([
    ['store', 'nodes', 'first 10% µs/node', 'last 10% µs/node', 'last/first'],
    await persistBench('no session', undefined, 2000),
    await persistBench('in-memory', new InMemorySessionRepository(), 2000),
    await persistBench('file', files, 400),
  ]);
} finally {
  await files.close();
  await rm(dir, { recursive: true, force: true });
}
