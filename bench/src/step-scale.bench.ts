/**
 * Is a step's cost flat in the size of the orchestration (issue 38)? A graph chain of N nodes
 * (N = 10, 100, 1,000, 10,000) and a swarm of M members handing off round-robin (M = 2, 20, 200;
 * max(20, M) handoffs per run), each on scripted models that answer at once, run
 * - without a session, and
 * - with a session: core's `InMemorySessionRepository` behind a proxy that counts the bytes of every
 *   write call (its arguments as JSON, which is what a store serializes), and, with
 *   BENCH_SCALE_FILE=1, a `FileSessionRepository` in a temp directory (sizes up to 1,000);
 *   each with history off (`keep: 'none'`: what was stored before time travel) and on (`'all'`).
 * Per step: the median interval between consecutive `nodeStart` events in the middle of the run (first
 * and last 10% cut), and the median bytes written per middle step; per run: all bytes written divided
 * by the steps (what is stored once per run, such as the graph's shape, shows up here only).
 * Floor, in the same run: a hand-written loop over the same number of steps that calls the same
 * scripted model once per step and keeps each step's result as JSON in a Map (bytes: that JSON).
 * Best of BENCH_ROUNDS runs (default 3). Sizes: BENCH_SCALE_GRAPH / BENCH_SCALE_SWARM ("10,100").
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  Agent,
  InMemorySessionRepository,
  RepositorySessionManager,
  type SessionManager,
  type SessionRepository,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionRepository } from '@skein/session-file';
import { Swarm } from '@skein/swarm';
import { table } from './measure.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const sizes = (name: string, fallback: number[]): number[] =>
  process.env[name] ? (process.env[name] as string).split(',').map(Number) : fallback;
const GRAPH_SIZES = sizes('BENCH_SCALE_GRAPH', [10, 100, 1000, 10000]);
const SWARM_SIZES = sizes('BENCH_SCALE_SWARM', [2, 20, 200]);
const FILE = process.env['BENCH_SCALE_FILE'] === '1';

/** Bytes written, cut into steps at each `nodeStart`. */
class ByteLog {
  steps: number[] = [0];
  add(bytes: number): void {
    this.steps[this.steps.length - 1] = (this.steps[this.steps.length - 1] as number) + bytes;
  }
  cut(): void {
    this.steps.push(0);
  }
}

const WRITE = /^(create|update|put|append|delete|writeBatch)/;

/** The repository, with the bytes of every write call counted (the calls go to the real repository). */
function counted(repository: SessionRepository, log: () => ByteLog): SessionRepository {
  return new Proxy(repository, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (typeof prop !== 'string' || !WRITE.test(prop)) return fn.bind(target);
      return (...args: unknown[]) => {
        log().add(JSON.stringify(args.slice(1)).length);
        return fn.apply(target, args);
      };
    },
  });
}

const answer = (text: string): ScriptedModel => new ScriptedModel([text], { loop: true, record: false });

interface Runnable {
  invoke(task: string): Promise<{ status: string }>;
  on(type: 'nodeStart', fn: () => void): unknown;
}

type Keep = 'all' | 'none';

function chain(n: number, sessionManager: SessionManager | undefined, keep: Keep): Runnable {
  const builder = new GraphBuilder().setId('chain').setMaxNodeExecutions(n + 1);
  if (sessionManager) builder.setSessionManager(sessionManager).setHistory({ keep });
  for (let i = 0; i < n; i++) {
    builder.addNode(new Agent({ name: `n${i}`, model: answer(`node ${i} did its part`), retryStrategy: null }));
    if (i > 0) builder.addEdge(`n${i - 1}`, `n${i}`);
  }
  return builder.build();
}

const handoffsFor = (members: number): number => Math.max(20, members);

function roundRobin(members: number, sessionManager: SessionManager | undefined, keep: Keep): Runnable {
  const handoffs = handoffsFor(members);
  const agents: Agent[] = [];
  for (let i = 0; i < members; i++) {
    // Member i hands off to i + 1 (mod members) until the run has made `handoffs` transfers.
    const next = `transfer_to_member_${(i + 1) % members}`;
    const rounds = Math.ceil(handoffs / members) + 1;
    const script = Array.from({ length: rounds }, (_, k) => {
      const seq = k * members + i;
      return seq < handoffs ? { text: `member ${i} passes on`, toolUses: [{ name: next, input: {} }] } : 'done';
    });
    agents.push(
      new Agent({
        name: `member_${i}`,
        model: new ScriptedModel(script, { record: false }),
        retryStrategy: null,
      }),
    );
  }
  return new Swarm({
    id: 'ring',
    nodes: agents,
    maxHandoffs: handoffs + 1,
    maxIterations: handoffs + 2,
    repetitiveHandoffDetectionWindow: 0,
    ...(sessionManager ? { sessionManager, history: { keep } } : {}),
  });
}

interface Measured {
  /** Median ms between consecutive nodeStarts in the middle of the run. */
  stepMs: number;
  /** Median bytes written per middle step. */
  stepBytes: number;
  /** All bytes of the run / steps. */
  runBytes: number;
  steps: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const middle = <T>(xs: T[]): T[] => {
  const cut = Math.max(1, Math.floor(xs.length / 10));
  return xs.slice(cut, xs.length - cut);
};

async function measure(make: (log: ByteLog) => Runnable): Promise<Measured> {
  let best: Measured | undefined;
  for (let r = 0; r < ROUNDS; r++) {
    const log = new ByteLog();
    const stamps: number[] = [];
    const run = make(log);
    run.on('nodeStart', () => {
      stamps.push(performance.now());
      log.cut();
    });
    const result = await run.invoke('Work through it.');
    if (result.status !== 'completed') throw new Error(`run ended ${result.status}`);
    const intervals = stamps.slice(1).map((t, i) => t - (stamps[i] as number));
    const total = log.steps.reduce((a, b) => a + b, 0);
    const m: Measured = {
      stepMs: median(middle(intervals)),
      // steps[k] holds the writes after the k-th nodeStart up to the next one: step k's own writes.
      stepBytes: median(middle(log.steps.slice(1))),
      runBytes: total / stamps.length,
      steps: stamps.length,
    };
    if (!best || m.stepMs < best.stepMs) best = m;
  }
  return best as Measured;
}

/** The floor: `steps` calls of a scripted model, each result kept as JSON in a Map; ms per step and bytes per step. */
async function floor(steps: number): Promise<{ ms: number; bytes: number }> {
  let bestMs = Infinity;
  let bytes = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const model = answer('node 1 did its part');
    const store = new Map<string, string>();
    let written = 0;
    const t = performance.now();
    for (let i = 0; i < steps; i++) {
      let text = '';
      for await (const event of model.stream({ messages: [{ role: 'user', content: [{ text: 'go' }] }] }))
        if ('contentBlockDelta' in event && 'text' in event.contentBlockDelta.delta)
          text += event.contentBlockDelta.delta.text;
      const json = JSON.stringify({ nodeId: `n${i}`, status: 'completed', text });
      store.set(`n${i}`, json);
      written += json.length;
    }
    bestMs = Math.min(bestMs, (performance.now() - t) / steps);
    bytes = written / steps;
  }
  return { ms: bestMs, bytes };
}

type Kind = 'graph chain' | 'swarm ring';
const build: Record<Kind, (size: number, sm: SessionManager | undefined, keep: Keep) => Runnable> = {
  'graph chain': chain,
  'swarm ring': roundRobin,
};

const rows: (string | number)[][] = [
  [
    'shape',
    'size',
    'steps',
    'floor ms/step',
    'no session ms/step',
    'memory ms/step',
    'memory bytes/step',
    'memory run bytes/step',
    'history: ms/step',
    'history: bytes/step',
    'history: run bytes/step',
    ...(FILE ? ['file ms/step', 'file bytes/step', 'file+history ms/step', 'file+history bytes/step'] : []),
    'floor bytes/step',
  ],
];
const root = FILE ? await fs.mkdtemp(path.join(os.tmpdir(), 'skein-step-scale-')) : '';
let sid = 0;
const inMemory = (kind: Kind, size: number, keep: Keep) =>
  measure((log) => {
    const repository = counted(new InMemorySessionRepository(), () => log);
    return build[kind](size, new RepositorySessionManager({ sessionId: `s${sid++}`, repository }), keep);
  });
const onFiles = (kind: Kind, size: number, keep: Keep) =>
  measure((log) => {
    const repository = counted(new FileSessionRepository({ storageDir: root }), () => log);
    const sessionId = `${kind.replace(' ', '-')}-${size}-${sid++}`;
    return build[kind](size, new RepositorySessionManager({ sessionId, repository }), keep);
  });
const ms = (m: Measured | undefined): string => (m ? m.stepMs.toFixed(3) : '-');
const bytes = (m: Measured | undefined, run = false): string | number =>
  m ? Math.round(run ? m.runBytes : m.stepBytes) : '-';
try {
  for (const [kind, list] of [
    ['graph chain', GRAPH_SIZES],
    ['swarm ring', SWARM_SIZES],
  ] as const) {
    for (const size of list) {
      const bare = await measure(() => build[kind](size, undefined, 'none'));
      const memory = await inMemory(kind, size, 'none');
      const kept = await inMemory(kind, size, 'all');
      const onDisk = FILE && size <= 1000;
      const file = onDisk ? await onFiles(kind, size, 'none') : undefined;
      const fileKept = onDisk ? await onFiles(kind, size, 'all') : undefined;
      const f = await floor(memory.steps);
      rows.push([
        kind,
        size,
        memory.steps,
        f.ms.toFixed(4),
        ms(bare),
        ms(memory),
        bytes(memory),
        bytes(memory, true),
        ms(kept),
        bytes(kept),
        bytes(kept, true),
        ...(FILE ? [ms(file), bytes(file), ms(fileKept), bytes(fileKept)] : []),
        Math.round(f.bytes),
      ]);
      console.log(`done: ${kind} ${size}`);
    }
  }
} finally {
  if (root) await fs.rm(root, { recursive: true, force: true });
}
console.log(
  `Per step: median of the middle steps (first and last 10% cut), best of ${ROUNDS} runs; run bytes/step = all bytes of the run / steps.`,
);
table(rows);
