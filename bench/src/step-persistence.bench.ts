/**
 * What one orchestration step costs in persistence, measured only (nothing here changes what is
 * written): one graph node (a chain) and one swarm handoff (a chain of agents handing off), with
 * scripted models, on
 * - FileSessionManager, against one durable single-file write in the same run (temp file, write,
 *   fsync, rename, fsync of the directory) of the same size as the step's writes together;
 * - S3SessionManager on radosgw (from @skein/session-s3/testing), against one conditional PUT
 *   (If-None-Match: *) of that size, both on plain loopback and through a loopback TCP proxy written
 *   here that holds every chunk the client sends for 30 ms before forwarding it (a fixed 30 ms added
 *   to each request's round trip, standing in for real S3).
 * Per step it also counts the durable writes (calls to the repository's write methods for files; PUT
 * and DELETE requests for S3) and the rounds they take: a new round starts when a write starts after
 * every earlier write of the step has finished, so writes issued together count as one round.
 * A step's time is the median interval between consecutive `nodeStart` events in the middle of one
 * run (start and end of the run excluded); best of BENCH_ROUNDS runs (default 3).
 * Each shape runs twice: with models that answer at once (every write of a step is on the clock) and
 * with models that answer after MODEL_DELAY_MS (as real models do: a write the step does not wait
 * for, such as its trailing transition, overlaps the next node's model call).
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Agent, RepositorySessionManager, type SessionManager, type SessionRepository } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionRepository } from '@skein/session-file';
import { S3SessionRepository } from '@skein/session-s3';
import { startRgwServer, type RgwServer } from '@skein/session-s3/testing';
import { Swarm } from '@skein/swarm';
import { table } from './measure.js';

const STEPS = 12;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const DELAY_MS = 30;
const MODEL_DELAY_MS = 20;

interface Call {
  name: string;
  start: number;
  end: number;
  bytes: number;
}

/** Records every write of one run, cut into steps at each `nodeStart`. */
class WriteLog {
  steps: Call[][] = [[]];
  record(name: string, bytes: number): (end?: unknown) => void {
    const call: Call = { name, start: performance.now(), end: Infinity, bytes };
    (this.steps[this.steps.length - 1] as Call[]).push(call);
    return () => void (call.end = performance.now());
  }
  cut(): void {
    this.steps.push([]);
  }
}

/** Rounds of writes: a round starts when a write starts after all earlier writes of the step ended. */
function rounds(calls: readonly Call[]): number {
  let n = 0;
  let lastEnd = -Infinity;
  for (const c of [...calls].sort((a, b) => a.start - b.start)) {
    if (c.start >= lastEnd) n++;
    lastEnd = Math.max(lastEnd, c.end);
  }
  return n;
}

const WRITE = /^(create|update|put|append|delete)/;

/** The repository, with every write method call recorded (the calls go to the real repository). */
function counted(repository: SessionRepository, log: () => WriteLog): SessionRepository {
  return new Proxy(repository, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (typeof prop !== 'string' || !WRITE.test(prop)) return fn.bind(target);
      return (...args: unknown[]) => {
        const done = log().record(prop, JSON.stringify(args.slice(1)).length);
        const out = fn.apply(target, args) as Promise<unknown>;
        return out.finally(done);
      };
    },
  });
}

/** An S3 client whose PUT and DELETE requests are recorded in the log. */
function countingClient(config: S3ClientConfig, log: () => WriteLog): S3Client {
  const client = new S3Client(config);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = (context.commandName ?? '').replace(/Command$/, '');
      if (!/^(Put|Delete|Copy|CompleteMultipart)/.test(name)) return next(args);
      const body = (args.input as { Body?: unknown }).Body;
      const done = log().record(name, typeof body === 'string' ? body.length : 0);
      try {
        return await next(args);
      } finally {
        done();
      }
    },
    { step: 'initialize', name: 'skeinBenchCount' },
  );
  return client;
}

/** A loopback TCP proxy to `port` that forwards what the client sends `delayMs` later (responses at once). */
async function delayProxy(port: number, delayMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => void setTimeout(() => upstream.write(chunk), delayMs));
    client.on('end', () => void setTimeout(() => upstream.end(), delayMs));
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const scripted = (turn: ConstructorParameters<typeof ScriptedModel>[0][number]): ScriptedModel =>
  new ScriptedModel([turn], { loop: true, record: false });

function graphOf(
  sessionManager: SessionManager | undefined,
  id: string,
  delayMs = 0,
): { stream: (task: string) => AsyncIterable<{ type: string }> } {
  const builder = new GraphBuilder().setId(id);
  if (sessionManager) builder.setSessionManager(sessionManager);
  for (let i = 0; i < STEPS; i++) {
    builder.addNode(
      new Agent({
        name: `n${i}`,
        model: scripted({ text: `node ${i} did its part of the work`, delayMs }),
        retryStrategy: null,
      }),
    );
    if (i > 0) builder.addEdge(`n${i - 1}`, `n${i}`);
  }
  return builder.build();
}

function swarmOf(
  sessionManager: SessionManager | undefined,
  id: string,
  delayMs = 0,
): { stream: (task: string) => AsyncIterable<{ type: string }> } {
  const agents: Agent[] = [];
  for (let i = STEPS - 1; i >= 0; i--) {
    const next = agents[0];
    const turn = next
      ? { text: `agent ${i} passes on`, toolUses: [{ name: `transfer_to_agent_${i + 1}`, input: {} }], delayMs }
      : { text: 'the last agent answers', delayMs };
    agents.unshift(
      new Agent({
        model: scripted(turn),
        name: `agent_${i}`,
        retryStrategy: null,
        ...(next ? { handoffs: [next] } : {}),
      }),
    );
  }
  return Swarm.fromAgent(agents[0] as Agent, {
    id,
    maxHandoffs: STEPS + 1,
    maxIterations: STEPS + 1,
    ...(sessionManager ? { sessionManager } : {}),
  });
}

interface StepResult {
  ms: number;
  writes: number;
  rounds: number;
  bytes: number;
  /** One middle step's writes in start order, `|` between rounds. */
  shape: string;
  /** Floor samples (ms) taken between the runs. */
  floor: number[];
}

function describe(calls: readonly Call[]): string {
  let lastEnd = -Infinity;
  const parts: string[] = [];
  for (const c of [...calls].sort((a, b) => a.start - b.start)) {
    if (c.start >= lastEnd && parts.length > 0) parts.push('|');
    parts.push(c.name);
    lastEnd = Math.max(lastEnd, c.end);
  }
  return parts.join(' ');
}

/** Runs one orchestrator; returns the median step (ms between nodeStarts, writes, rounds, bytes) of the middle steps. */
async function runOnce(
  build: () => { stream: (task: string) => AsyncIterable<{ type: string }> },
  log: WriteLog,
): Promise<StepResult> {
  const stamps: number[] = [];
  for await (const event of build().stream('Route this request.')) {
    if (event.type === 'nodeStart') {
      stamps.push(performance.now());
      log.cut();
    }
  }
  if (stamps.length !== STEPS) throw new Error(`expected ${STEPS} steps, saw ${stamps.length}`);
  const middle = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const intervals = stamps
    .slice(1)
    .map((t, i) => t - (stamps[i] as number))
    .slice(1, -1);
  // log.steps[k] holds the writes after the k-th nodeStart, up to the next one (step k's own writes and its commit).
  const steps = log.steps.slice(2, -2);
  return {
    ms: middle(intervals),
    writes: middle(steps.map((s) => s.length)),
    rounds: middle(steps.map(rounds)),
    bytes: middle(steps.map((s) => s.reduce((n, c) => n + c.bytes, 0))),
    shape: describe(steps[Math.floor(steps.length / 2)] ?? []),
    floor: [],
  };
}

/**
 * Best of ROUNDS runs; `floor(bytes)` (one sample, ms) is sampled 10 times after each run, so the
 * floor and the steps see the same load from other processes. Returns the floor's median.
 */
async function best(
  label: string,
  build: (round: number) => { stream: (task: string) => AsyncIterable<{ type: string }> },
  logRef: { log: WriteLog },
  floor?: (bytes: number, sample: string) => Promise<number>,
): Promise<StepResult> {
  let bestResult: StepResult | undefined;
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    logRef.log = new WriteLog();
    const result = await runOnce(() => build(r), logRef.log);
    if (!bestResult || result.ms < bestResult.ms) bestResult = result;
    if (floor) for (let i = 0; i < 10; i++) samples.push(await floor(result.bytes, `${r}-${i}`));
  }
  if (!bestResult) throw new Error(label);
  return { ...bestResult, floor: samples };
}

function median(xs: number[]): number {
  return xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
}

/** One durable single-file write of `bytes` (temp file, write, fsync, close, rename, fsync dir); ms. */
async function fileFloor(dir: string, bytes: number, sample: string): Promise<number> {
  const t = performance.now();
  const tmp = path.join(dir, `.floor_${sample}.json.tmp`);
  const h = await fs.open(tmp, 'wx');
  await h.writeFile('x'.repeat(bytes));
  await h.sync();
  await h.close();
  await fs.rename(tmp, path.join(dir, `floor_${sample}.json`));
  const d = await fs.open(dir, 'r');
  await d.sync();
  await d.close();
  return performance.now() - t;
}

/** One conditional PUT (If-None-Match: *) of `bytes`; ms. */
async function putFloor(client: S3Client, bucket: string, bytes: number, key: string): Promise<number> {
  const t = performance.now();
  await client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: `floor/${key}.json`,
      Body: 'x'.repeat(bytes),
      ContentType: 'application/json',
      IfNoneMatch: '*',
    }),
  );
  return performance.now() - t;
}

const rows: (string | number)[][] = [
  [
    'step',
    'store',
    'ms/step',
    'no-session ms/step',
    'writes/step',
    'rounds/step',
    'bytes/step',
    'floor ms',
    'step / floor',
    'persistence / floor',
  ],
];
const shapesSeen = new Map<string, string>();
function addRow(shape: string, store: string, result: StepResult, noSession: number): void {
  const floor = median(result.floor);
  rows.push([
    shape,
    store,
    result.ms,
    noSession,
    result.writes,
    result.rounds,
    result.bytes,
    floor,
    (result.ms / floor).toFixed(2),
    ((result.ms - noSession) / floor).toFixed(2),
  ]);
  shapesSeen.set(`${shape} (${store})`, result.shape);
}
type Build = (
  sessionManager: SessionManager | undefined,
  id: string,
) => { stream: (task: string) => AsyncIterable<{ type: string }> };
const shapes: Record<string, Build> = {
  'graph node': (sm, id) => graphOf(sm, id),
  'swarm handoff': (sm, id) => swarmOf(sm, id),
  [`graph node, model ${MODEL_DELAY_MS} ms`]: (sm, id) => graphOf(sm, id, MODEL_DELAY_MS),
  [`swarm handoff, model ${MODEL_DELAY_MS} ms`]: (sm, id) => swarmOf(sm, id, MODEL_DELAY_MS),
};
const slug = (shape: string): string => shape.replace(/\W+/g, '-');

// No session: the orchestration alone, to subtract.
const bare: Record<string, number> = {};
for (const [shape, make] of Object.entries(shapes))
  bare[shape] = (await best(shape, () => make(undefined, 'bare'), { log: new WriteLog() })).ms;

// Files.
const root = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-step-persistence-bench-'));
try {
  const floorDir = path.join(root, 'floor');
  await fs.mkdir(floorDir);
  for (const [shape, make] of Object.entries(shapes)) {
    const ref = { log: new WriteLog() };
    const repos: FileSessionRepository[] = [];
    const result = await best(
      shape,
      (r) => {
        const repository = new FileSessionRepository({ storageDir: root });
        repos.push(repository);
        return make(
          new RepositorySessionManager({
            sessionId: `${slug(shape)}-${r}`,
            repository: counted(repository, () => ref.log),
          }),
          'bench',
        );
      },
      ref,
      (bytes, sample) => fileFloor(floorDir, bytes, `${slug(shape)}-${sample}`),
    );
    for (const repo of repos) await repo.close();
    addRow(shape, 'file', result, bare[shape] as number);
  }
} finally {
  await fs.rm(root, { recursive: true, force: true });
}

// S3 on radosgw, plain loopback and through the 30 ms proxy.
let server: RgwServer | undefined;
try {
  server = await startRgwServer();
} catch (error) {
  console.log(`(S3 skipped: radosgw did not start: ${error instanceof Error ? error.message : String(error)})`);
}
if (server) {
  const proxy = await delayProxy(Number(new URL(server.endpoint).port), DELAY_MS);
  const clients: S3Client[] = [];
  try {
    const bucket = await server.createBucket('skein-step-bench');
    for (const [store, endpoint] of [
      ['s3 loopback', server.endpoint],
      [`s3 +${DELAY_MS} ms proxy`, `http://127.0.0.1:${proxy.port}`],
    ] as const) {
      const config = { ...server.clientConfig(), endpoint };
      for (const [shape, make] of Object.entries(shapes)) {
        const ref = { log: new WriteLog() };
        const floorClient = new S3Client(config);
        clients.push(floorClient);
        const tag = `${store}-${shape}`.replace(/\W+/g, '-');
        await putFloor(floorClient, bucket, 100, `${tag}-warm`); // open the connection first
        const result = await best(
          shape,
          (r) => {
            const client = countingClient(config, () => ref.log);
            clients.push(client);
            const repository = new S3SessionRepository({ bucket, prefix: store.replace(/\W+/g, '-'), client });
            return make(new RepositorySessionManager({ sessionId: `${slug(shape)}-${r}`, repository }), 'bench');
          },
          ref,
          (bytes, sample) => putFloor(floorClient, bucket, bytes, `${tag}-${sample}`),
        );
        addRow(shape, store, result, bare[shape] as number);
      }
    }
  } finally {
    for (const c of clients) c.destroy();
    await proxy.close();
    await server.stop();
  }
}

console.log(
  `One step of a ${STEPS}-step chain (median of the middle steps, best of ${ROUNDS} runs). floor = one durable single-file write`,
);
console.log(
  "(file) or one conditional PUT (S3) of the step's bytes, same run; persistence = step minus the same step without a session.",
);
table(rows);
console.log(
  '\nWrites of one middle step, in start order (| = the next write started after all before it had finished):',
);
for (const [what, writes] of shapesSeen) console.log(`  ${what}: ${writes}`);
