/**
 * `@skein/server` against a floor in the same run: a bare node:http SSE server that runs the same
 * agent turn per request on the same store and writes the same events (server-bench-target.ts). Each
 * target runs in its own process; this one is the client.
 *
 * Load: CONVERSATIONS (default 1,000) concurrent conversations, each TURNS (3) turns one after
 * another, every turn a POST answered as SSE (an agent with one tool on a ScriptedModel that waits
 * 20 ms per call: two model calls a turn), read to the end. Paired rounds: each of BENCH_ROUNDS (5)
 * rounds runs the floor and every skein target back to back (the order turning each round), and each
 * skein figure is divided by the floor's of its own round: turns/s, p99 time to first event, the HTTP
 * layer's CPU per event (the server process's CPU per streamed event minus the same turns run without
 * HTTP in that process). The table gives the median of the rounds and of their ratios, with the range.
 * Then heap per open stream: CONVERSATIONS streams held open (a model call of 10 minutes) in a fresh
 * process per target, paired the same way (BENCH_HEAP_ROUNDS, 2).
 *
 * Stores (BENCH_SERVER_STORES, default `memory,sqlite`): core's in-memory repository; SQLite (one
 * database file per target in a temp directory, synchronous=FULL, group commit).
 * Targets: the floor, `skein` (this tree), and BENCH_SERVER_VARIANTS=`name=/path/to/src/index.ts;...`
 * (another tree's @skein/server, for before/after pairs in one run; see bench/README.md).
 * Last, BENCH_SERVER_MANY (default 10,000; 0 skips) streams open in one skein process (and in the
 * floor's): heap and descriptors per stream, and a probe conversation's latency beside them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { table } from './measure.js';
import {
  loadRound,
  median,
  overheadPerEvent,
  pct,
  perEvent,
  startTarget,
  stopTarget,
  type RoundResult,
  type Target,
} from './server-bench-client.js';
import { openStreams, type OpenStreams } from './server-bench-open.js';

const N = Number(process.env['BENCH_SERVER_CONVERSATIONS'] ?? 1000);
const TURNS = Number(process.env['BENCH_SERVER_TURNS'] ?? 3);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const HEAP_ROUNDS = Number(process.env['BENCH_HEAP_ROUNDS'] ?? 2);
const MANY = Number(process.env['BENCH_SERVER_MANY'] ?? 10_000);
const STORES = (process.env['BENCH_SERVER_STORES'] ?? 'memory,sqlite').split(',').filter(Boolean);
const VARIANTS: [string, string][] = (process.env['BENCH_SERVER_VARIANTS'] ?? '')
  .split(';')
  .filter(Boolean)
  .map((v) => v.split('=') as [string, string]);

/** A target's mode and environment. */
interface Spec {
  name: string;
  mode: 'floor' | 'skein';
  env: Record<string, string>;
}

const spread = (xs: number[], digits = 2): string =>
  xs.length === 0
    ? '-'
    : `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;

function specs(store: string, dir: string): Spec[] {
  const env = { BENCH_STORE: store, BENCH_SQLITE_DIR: dir };
  return [
    { name: 'floor', mode: 'floor', env },
    { name: 'skein', mode: 'skein', env },
    ...VARIANTS.map(([name, entry]): Spec => ({ name, mode: 'skein', env: { ...env, BENCH_SERVER_MODULE: entry } })),
  ];
}

/** Paired load rounds: every target's results per round, in round order. */
async function loadRounds(all: Spec[]): Promise<Map<string, RoundResult[]>> {
  const results = new Map<string, RoundResult[]>(all.map((s) => [s.name, []]));
  const targets: Target[] = [];
  try {
    if (ROUNDS === 0) return results;
    for (const s of all) targets.push(await startTarget(s.name, s.mode, s.env));
    for (const t of targets) await loadRound(t, 50, TURNS, `warm-${t.name}`);
    for (let round = 0; round < ROUNDS; round++) {
      const order = [...targets.slice(round % targets.length), ...targets.slice(0, round % targets.length)];
      for (const t of order) {
        const r = await loadRound(t, N, TURNS, `r${round}`);
        results.get(t.name)?.push(r);
        console.log(
          `  round ${round + 1} ${t.name}: ${r.turnsPerSec.toFixed(0)} turns/s, first event p99 ${pct(r.first, 0.99).toFixed(0)} ms, ${perEvent(r).toFixed(1)} µs/event, overhead ${overheadPerEvent(r).toFixed(1)} µs/event`,
        );
      }
    }
  } finally {
    for (const t of targets) await stopTarget(t);
  }
  return results;
}

/** Paired heap rounds: KB per open stream of every target, per round. */
async function heapRounds(all: Spec[]): Promise<Map<string, number[]>> {
  const kb = new Map<string, number[]>(all.map((s) => [s.name, []]));
  for (let round = 0; round < HEAP_ROUNDS; round++) {
    for (const s of round % 2 === 0 ? all : [...all].reverse()) {
      const open = await openStreams(s.name, s.mode, s.env, N, 0);
      kb.get(s.name)?.push(open.heapPerStream / 1024);
      console.log(`  heap round ${round + 1} ${s.name}: ${(open.heapPerStream / 1024).toFixed(1)} KB per open stream`);
    }
  }
  return kb;
}

function report(store: string, all: Spec[], load: Map<string, RoundResult[]>, heap: Map<string, number[]>): void {
  const floor = load.get('floor') ?? [];
  const floorHeap = heap.get('floor') ?? [];
  const ratio = (name: string, f: (r: RoundResult) => number): string =>
    spread((load.get(name) ?? []).map((r, i) => f(r) / f(floor[i] as RoundResult)));
  const rows: (string | number)[][] = [
    [
      `${store}: target`,
      'turns/s',
      'x floor',
      'first event p50 ms',
      'p99 ms',
      'p99 x floor',
      'CPU µs/event',
      'HTTP µs/event',
      'x floor',
      'KB/open stream',
      'x floor',
    ],
  ];
  for (const { name } of all) {
    const rs = load.get(name) ?? [];
    const kb = heap.get(name) ?? [];
    rows.push([
      name,
      spread(
        rs.map((r) => r.turnsPerSec),
        0,
      ),
      name === 'floor' ? '' : ratio(name, (r) => r.turnsPerSec),
      rs.length ? median(rs.map((r) => pct(r.first, 0.5))).toFixed(0) : '-',
      spread(
        rs.map((r) => pct(r.first, 0.99)),
        0,
      ),
      name === 'floor' ? '' : ratio(name, (r) => pct(r.first, 0.99)),
      rs.length ? median(rs.map(perEvent)).toFixed(1) : '-',
      spread(rs.map(overheadPerEvent), 1),
      name === 'floor' ? '' : ratio(name, overheadPerEvent),
      kb.length ? spread(kb, 1) : '-',
      name === 'floor' || !kb.length ? '' : spread(kb.map((k, i) => k / (floorHeap[i] as number))),
    ]);
  }
  table(rows);
}

function reportMany(many: [string, OpenStreams][]): void {
  const ms = ([p50, p99]: [number, number]): string => `${p50.toFixed(1)} / ${p99.toFixed(1)}`;
  table([
    [
      'open streams',
      'target',
      'all open after s',
      'heap MB',
      'KB/stream',
      'fds/stream',
      'probe first event p50/p99 ms: idle',
      'open',
      'probe turn p50/p99 ms: idle',
      'open',
    ],
    ...many.map(([name, o]) => [
      o.n,
      name,
      (o.openMs / 1000).toFixed(1),
      o.heapMb.toFixed(0),
      (o.heapPerStream / 1024).toFixed(1),
      o.fdsPerStream.toFixed(2),
      ms(o.probeIdle.first),
      ms(o.probeOpen.first),
      ms(o.probeIdle.turn),
      ms(o.probeOpen.turn),
    ]),
  ]);
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'skein-server-bench-'));
try {
  for (const store of STORES) {
    const all = specs(store, dir);
    console.log(`${store}: ${N} conversations x ${TURNS} turns, ${ROUNDS} paired rounds`);
    const load = await loadRounds(all);
    const heap = HEAP_ROUNDS > 0 ? await heapRounds(all) : new Map<string, number[]>();
    report(store, all, load, heap);
  }
  if (MANY > 0) {
    const many: [string, OpenStreams][] = [];
    for (const s of specs('memory', dir).filter((x) => x.name === 'floor' || x.name === 'skein'))
      many.push([s.name, await openStreams(s.name, s.mode, s.env, MANY)]);
    reportMany(many);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
