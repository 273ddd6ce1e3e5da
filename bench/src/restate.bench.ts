/**
 * skein on Restate against the same graph in process, with scripted models (no network), a real
 * restate-server on loopback (installed into ~/.cache/skein on first use) and workers in their own
 * processes (this file, started with `worker`):
 * - per-node overhead against the same graph in process: a chain of 10 agent nodes with every node in
 *   the run's worker (`spreadNodes: 'none'`, what the default does for a chain) and with every node
 *   its own Restate call (`'all'`); a 1 -> 4 -> 1 fan-out with the default (`'parallel'`: the four
 *   branches are calls, root and sink run in place);
 * - runs per second of that fan-out, 8 runs in flight, with 1 and with 2 workers behind a loopback
 *   HTTP/2 round-robin proxy (the same proxy in both, so only the worker count changes), with
 *   instant models and with models that cost 10 ms of the worker's CPU per call.
 * Run: cd /work/main && npm run bench --workspace bench -- restate
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, type Model } from '@skein/core';
import { GraphBuilder, type Graph } from '@skein/graph';
import { RestateServer, startRoundRobinProxy, type RoundRobinProxy } from '@skein/restate/testing';
import { bestMs, table } from './measure.js';

const CHAIN = 10;
const WIDTH = 4;

/** A model with a canned answer: what is measured is orchestration and durability, not a provider. */
const canned: Model = {
  modelId: 'canned',
  async *stream() {
    yield { messageStart: { role: 'assistant' } };
    yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'ok' } } };
    yield { contentBlockStop: { contentBlockIndex: 0 } };
    yield { messageStop: { stopReason: 'end_turn' } };
  },
};
const agent = (name: string): Agent => new Agent({ name, model: canned, retryStrategy: null });

/** A model whose call costs 10 ms of the worker's CPU (local work: parsing, embeddings, a small model). */
const busy: Model = {
  modelId: 'busy',
  async *stream() {
    const until = performance.now() + 10;
    while (performance.now() < until);
    yield* canned.stream({ messages: [] });
  },
};

function chain(): Graph {
  const builder = new GraphBuilder();
  for (let i = 0; i < CHAIN; i++) {
    builder.addNode(agent(`n${i}`), `n${i}`);
    if (i > 0) builder.addEdge(`n${i - 1}`, `n${i}`);
  }
  return builder.build();
}

function fanOut(model: Model = canned): Graph {
  const node = (name: string): Agent => new Agent({ name, model, retryStrategy: null });
  const builder = new GraphBuilder().addNode(node('root'), 'root').addNode(node('sink'), 'sink');
  const ids = Array.from({ length: WIDTH }, (_, i) => `w${i}`);
  for (const id of ids) builder.addNode(node(id), id).addEdge('root', id);
  return builder.addEdge(ids, 'sink').build();
}

function startWorker(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), 'worker', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const port = /listening (\d+)/.exec(chunk.toString('utf8'))?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}`, child });
    });
    child.once('exit', (code) => reject(new Error(`bench worker exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

let ids = 0;
const runOn = async (server: RestateServer, workflow: string): Promise<void> => {
  const reply = await server.call<{ status: string }>(`${workflow}/bench-${process.pid}-${ids++}/run`, 'task');
  if (reply.status !== 'completed') throw new Error(`${workflow} ended ${reply.status}`);
};

/** Runs per second: `total` runs of `workflow`, `inFlight` at a time. */
async function throughput(server: RestateServer, workflow: string, total: number, inFlight: number): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < total) await runOn(server, workflow);
    }),
  );
  return total / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function main(): Promise<void> {
  const server = await RestateServer.start();
  const workers: { url: string; child: ChildProcess }[] = [];
  const proxies: RoundRobinProxy[] = [];
  try {
    const first = await startWorker();
    const second = await startWorker();
    workers.push(first, second);
    const one = await startRoundRobinProxy([first.url]);
    const two = await startRoundRobinProxy([first.url, second.url]);
    proxies.push(one, two);

    await server.register(one.url);
    const chainLocal = await bestMs(() => chain().invoke('task'), 10);
    const fanLocal = await bestMs(() => fanOut().invoke('task'), 10);
    for (let i = 0; i < 3; i++) await Promise.all(['chain', 'chainCalls', 'fanOut'].map((w) => runOn(server, w))); // warm up
    const inline = await bestMs(() => runOn(server, 'chain'), 7);
    const calls = await bestMs(() => runOn(server, 'chainCalls'), 7);
    const fan = await bestMs(() => runOn(server, 'fanOut'), 7);
    const fanNodes = WIDTH + 2;
    console.log('Per-node overhead against the same graph in process, one run at a time (best of 7 runs; ms per node)');
    table([
      ['graph', 'in process', 'on Restate', 'ratio'],
      [
        `chain of ${CHAIN}, nodes in the run's worker ('none'; the default for a chain)`,
        chainLocal / CHAIN,
        inline / CHAIN,
        inline / chainLocal,
      ],
      [`chain of ${CHAIN}, every node a call ('all')`, chainLocal / CHAIN, calls / CHAIN, calls / chainLocal],
      [
        `1 -> ${WIDTH} -> 1, branches are calls ('parallel', default)`,
        fanLocal / fanNodes,
        fan / fanNodes,
        fan / fanLocal,
      ],
    ]);

    const rates = async (): Promise<number[]> => {
      const out: number[] = [];
      for (const workflow of ['fanOut', 'fanOutBusy']) {
        await throughput(server, workflow, 16, 8); // warm up
        out.push(await throughput(server, workflow, 80, 8));
      }
      return out;
    };
    const [oneFree = 0, oneBusy = 0] = await rates();
    await server.register(two.url);
    const [twoFree = 0, twoBusy = 0] = await rates();
    console.log(
      `\nRuns per second: 1 -> ${WIDTH} -> 1 fan-out (${WIDTH + 2} nodes, ${WIDTH} of them calls), 80 runs, 8 in flight`,
    );
    table([
      ['workers', 'runs/s (instant models)', 'runs/s (10 ms CPU per model call)'],
      ['1', oneFree, oneBusy],
      ['2', twoFree, twoBusy],
    ]);
    console.log(`(proxy streams to worker 1 / worker 2 with two workers: ${two.counts.join(' / ')})`);
  } finally {
    for (const p of proxies) await p.close();
    for (const w of workers) await stop(w.child);
    await server.stop();
  }
}

if (process.argv[2] === 'worker') {
  const restate = await import('@restatedev/restate-sdk');
  const { restateGraph } = await import('@skein/restate');
  const port = await restate.serve({
    port: Number(process.argv[3]),
    services: [
      restateGraph('chainCalls', chain, { spreadNodes: 'all' }),
      restateGraph('chain', chain, { spreadNodes: 'none' }),
      restateGraph('fanOut', () => fanOut()),
      restateGraph('fanOutBusy', () => fanOut(busy)),
    ],
    logger: () => undefined,
  });
  console.log(`listening ${port}`);
} else {
  await main();
}
