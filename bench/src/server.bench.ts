/**
 * `@skein/server` against a floor in the same run: a bare node:http SSE server that runs the same
 * agent turn per request and writes the same events (see server-bench-target.ts). Each target runs in
 * its own process; this one is the client: CONVERSATIONS (default 1,000) concurrent conversations,
 * each TURNS turns one after another, every turn a POST answered as SSE (an agent with one tool on a
 * ScriptedModel that waits 20 ms per call: two model calls a turn), read to the end.
 * Reported per target: turns/s; p50 / p99 of the time to the first event and of the turn (minus the
 * 40 ms of model delays), and what skein adds to each over the floor; server CPU per streamed event,
 * and the part of it above the agent's own work (the same turns run without HTTP in that process): the
 * HTTP layer's overhead per event, skein's over the floor's as a ratio (target: at most 2x); heap per
 * open stream (1,000 streams held open mid-turn by a 2 s model). BENCH_ROUNDS (default 3) rounds per
 * target, alternating; the best round of each is reported.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent as HttpAgent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { table } from './measure.js';

const N = Number(process.env['BENCH_SERVER_CONVERSATIONS'] ?? 1000);
const TURNS = Number(process.env['BENCH_SERVER_TURNS'] ?? 3);
const MODEL_DELAY_MS = 20;
const target = fileURLToPath(new URL('./server-bench-target.ts', import.meta.url));

interface Target {
  url: string;
  child: ChildProcess;
}

async function start(mode: string, env: Record<string, string> = {}): Promise<Target> {
  const child = spawn(
    process.execPath,
    ['--conditions=@skein/source', '--expose-gc', '--import', 'tsx', target, mode],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    },
  );
  const url = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
  });
  return { url, child };
}

const stats = async (t: Target): Promise<{ cpuUs: number; heap: number }> =>
  (await (await fetch(`${t.url}/__stats`)).json()) as { cpuUs: number; heap: number };

interface Turn {
  firstMs: number;
  turnMs: number;
  events: number;
}

const agent = new HttpAgent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, keepAliveMsecs: 30_000 });

/** One turn over node:http (lighter than fetch, so the client does not hide the servers' costs). */
function turn(t: Target, conversation: string, message: string): Promise<Turn> {
  const body = JSON.stringify({ message });
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      `${t.url}/v1/agents/support/conversations/${conversation}/messages`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let firstMs = 0;
        let events = 0;
        let tail = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (firstMs === 0) firstMs = performance.now() - start;
          const text = tail + chunk;
          let at = text.indexOf('\n\n');
          let from = 0;
          while (at >= 0) {
            if (!text.startsWith(':', from)) events++;
            from = at + 2;
            at = text.indexOf('\n\n', from);
          }
          tail = text.slice(from);
        });
        res.on('end', () => resolve({ firstMs, turnMs: performance.now() - start - 2 * MODEL_DELAY_MS, events }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const pct = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
};

interface RunResult {
  turnsPerSec: number;
  first: number[];
  turns: number[];
  events: number;
  cpuUs: number;
  bareCpuUs: number;
}

async function run(t: Target, n: number, label: string): Promise<RunResult> {
  const before = await stats(t);
  const first: number[] = [];
  const turns: number[] = [];
  let events = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      // Conversations start over the first second (1 ms apart), as clients arrive.
      await new Promise((r) => setTimeout(r, i));
      for (let k = 0; k < TURNS; k++) {
        const r = await turn(t, `${label}-${i}`, `Conversation ${i}, turn ${k}: where is my order A-1042?`);
        first.push(r.firstMs);
        turns.push(r.turnMs);
        events += r.events;
      }
    }),
  );
  const wall = performance.now() - start;
  const after = await stats(t);
  const bare = (await (
    await fetch(`${t.url}/__bare?n=${n}&turns=${TURNS}&label=${label}`, { method: 'POST' })
  ).json()) as {
    cpuUs: number;
  };
  return {
    turnsPerSec: (n * TURNS) / (wall / 1000),
    first,
    turns,
    events,
    cpuUs: after.cpuUs - before.cpuUs,
    bareCpuUs: bare.cpuUs,
  };
}

/** Heap per open stream: `n` streams held open mid-turn (a 2 s model), heap then minus heap idle. */
async function openStreams(mode: string, n: number): Promise<number> {
  const t = await start(mode, { BENCH_MODEL_DELAY_MS: '2000' });
  try {
    await turn(t, 'warm', 'warm up');
    const idle = (await stats(t)).heap;
    const pending = Array.from({ length: n }, (_, i) => turn(t, `open-${i}`, 'hold this stream open'));
    await new Promise((r) => setTimeout(r, 1000));
    const open = (await stats(t)).heap;
    await Promise.all(pending);
    return (open - idle) / n;
  } finally {
    t.child.kill();
  }
}

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const results: Record<string, RunResult> = {};
const targets: Record<string, Target> = { floor: await start('floor'), skein: await start('skein') };
try {
  for (const [mode, t] of Object.entries(targets)) await run(t, 50, `warm-${mode}`);
  // Rounds alternate the two targets; each keeps its best round (least CPU per event): the other
  // work on this machine inflates a round, never deflates it.
  for (let round = 0; round < ROUNDS; round++) {
    for (const [mode, t] of Object.entries(targets)) {
      const r = await run(t, N, `run${round}`);
      const best = results[mode];
      if (!best || r.cpuUs / r.events < best.cpuUs / best.events) results[mode] = r;
      console.log(
        `  round ${round + 1}: ${mode} x ${N}: ${(r.cpuUs / r.events).toFixed(1)} µs/event, overhead ${((r.cpuUs - r.bareCpuUs) / r.events).toFixed(1)} µs/event`,
      );
    }
  }
} finally {
  for (const t of Object.values(targets)) t.child.kill();
}
const heapFloor = await openStreams('floor', N);
const heapSkein = await openStreams('skein', N);

const floor = results['floor'] as RunResult;
const skein = results['skein'] as RunResult;
const perEvent = (r: RunResult): number => r.cpuUs / r.events;
const overheadPerEvent = (r: RunResult): number => (r.cpuUs - r.bareCpuUs) / r.events;
table([
  [
    'target',
    'turns/s',
    'first event p50 ms',
    'p99',
    'turn p50 ms (- model)',
    'p99',
    'events',
    'CPU µs/event',
    'HTTP overhead µs/event',
    'KB/open stream',
  ],
  [
    'floor: node:http SSE',
    floor.turnsPerSec,
    pct(floor.first, 0.5),
    pct(floor.first, 0.99),
    pct(floor.turns, 0.5),
    pct(floor.turns, 0.99),
    floor.events,
    perEvent(floor),
    overheadPerEvent(floor),
    heapFloor / 1024,
  ],
  [
    '@skein/server',
    skein.turnsPerSec,
    pct(skein.first, 0.5),
    pct(skein.first, 0.99),
    pct(skein.turns, 0.5),
    pct(skein.turns, 0.99),
    skein.events,
    perEvent(skein),
    overheadPerEvent(skein),
    heapSkein / 1024,
  ],
]);
console.log(
  `skein adds: first event p50 ${(pct(skein.first, 0.5) - pct(floor.first, 0.5)).toFixed(2)} ms, p99 ${(pct(skein.first, 0.99) - pct(floor.first, 0.99)).toFixed(2)} ms; ` +
    `turn p50 ${(pct(skein.turns, 0.5) - pct(floor.turns, 0.5)).toFixed(2)} ms, p99 ${(pct(skein.turns, 0.99) - pct(floor.turns, 0.99)).toFixed(2)} ms; ` +
    `per event ${((skein.turns.length ? pct(skein.turns, 0.5) - pct(floor.turns, 0.5) : 0) / (skein.events / skein.turns.length)).toFixed(3)} ms (turn p50 / events per turn); ` +
    `HTTP overhead per event skein / floor = ${(overheadPerEvent(skein) / overheadPerEvent(floor)).toFixed(2)}x; ` +
    `heap per open stream +${((heapSkein - heapFloor) / 1024).toFixed(1)} KB`,
);
