/**
 * The client side of `server.bench.ts`: starts a target process (server-bench-target.ts), runs
 * streamed turns against it over node:http (lighter than fetch, so the client does not hide the
 * servers' costs), and reads its CPU, heap and descriptors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent as HttpAgent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

/** The model's delay per call, as the target's default: two calls a turn. */
const MODEL_DELAY_MS = 20;
const targetFile = fileURLToPath(new URL('./server-bench-target.ts', import.meta.url));

/** A running target process. */
export interface Target {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
}

/** What a target reports of itself. */
export interface TargetStats {
  cpuUs: number;
  heap: number;
  fds: number;
}

/**
 * Starts `mode` (`floor` or `skein`) in its own process. `env` goes to it (`BENCH_STORE`,
 * `BENCH_SERVER_MODULE`, `BENCH_MODEL_DELAY_MS`); `BENCH_CPU_PROF=<dir>` profiles it (written on exit).
 */
export async function startTarget(name: string, mode: string, env: Record<string, string> = {}): Promise<Target> {
  const prof = process.env['BENCH_CPU_PROF'];
  const flags = prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [];
  // The packages as this process loads them: their built `dist` (what users run), or with
  // `--conditions=@skein/source` their TypeScript through tsx (whose keepNames gives every named
  // closure a property, so code with many closures pays more there than it does built).
  const conditions = process.execArgv.filter((a) => a.startsWith('--conditions'));
  const child = spawn(process.execPath, [...flags, ...conditions, '--expose-gc', '--import', 'tsx', targetFile, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`target ${name} exited with ${code}`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
  });
  return { name, url, child };
}

/** Stops a target and waits for it to exit (a profile is written on a normal exit). */
export async function stopTarget(t: Target): Promise<void> {
  if (t.child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    t.child.once('exit', () => resolve());
    t.child.kill('SIGTERM');
  });
}

/** CPU time, heap used (after a gc) and open descriptors of the target. */
export async function statsOf(t: Target): Promise<TargetStats> {
  return (await (await fetch(`${t.url}/__stats`)).json()) as TargetStats;
}

/** The CPU µs the target spends on `n` conversations of `turns` turns without HTTP (the agent's own work). */
async function bareCpuUs(t: Target, n: number, turns: number, label: string): Promise<number> {
  const url = `${t.url}/__bare?n=${n}&turns=${turns}&label=${label}`;
  return ((await (await fetch(url, { method: 'POST' })).json()) as { cpuUs: number }).cpuUs;
}

/** One turn as the client saw it. */
export interface TurnTiming {
  /** ms from sending the request to the first bytes of the stream. */
  firstMs: number;
  /** ms from sending the request to the stream's end, minus the model's delays. */
  turnMs: number;
  /** Data frames received (comments not counted). */
  events: number;
}

const agent = new HttpAgent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, keepAliveMsecs: 30_000 });

// A kept-alive socket the machine's load lets a server reset between turns is the client's noise, not a
// result: said, and the bench goes on (the turn it cut fails and is not counted).
process.on('uncaughtException', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'ECONNRESET') throw error;
  console.error(`  (client: a connection was reset: ${error.message})`);
});

/** One turn: a POST of `message` answered as SSE, read to the end. */
export function streamedTurn(
  t: Target,
  conversation: string,
  message: string,
  options: { agentName?: string; modelMs?: number; onFirst?: () => void } = {},
): Promise<TurnTiming> {
  const body = JSON.stringify({ message });
  const start = performance.now();
  const path = `/v1/agents/${options.agentName ?? 'support'}/conversations/${conversation}/messages`;
  return new Promise((resolve, reject) => {
    const req = request(
      `${t.url}${path}`,
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
          if (firstMs === 0) {
            firstMs = performance.now() - start;
            options.onFirst?.();
          }
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
        res.on('end', () =>
          resolve({ firstMs, turnMs: performance.now() - start - (options.modelMs ?? 2 * MODEL_DELAY_MS), events }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The `p` quantile of `xs` (0..1). */
export const pct = (xs: readonly number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
};

/** The median of `xs`. */
export const median = (xs: readonly number[]): number => pct(xs, 0.5);

/** One load round against one target. */
export interface RoundResult {
  turnsPerSec: number;
  first: number[];
  turns: number[];
  events: number;
  cpuUs: number;
  bareCpuUs: number;
}

/**
 * `n` concurrent conversations (started 1 ms apart, as clients arrive), `turns` streamed turns each,
 * then (unless `bare: false`) the same turns without HTTP in the target (what the agent alone costs there).
 */
export async function loadRound(
  t: Target,
  n: number,
  turns: number,
  label: string,
  options: { bare?: boolean } = {},
): Promise<RoundResult> {
  const before = await statsOf(t);
  const first: number[] = [];
  const times: number[] = [];
  let events = 0;
  let failed = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i));
      for (let k = 0; k < turns; k++) {
        const r = await streamedTurn(
          t,
          `${label}-${i}`,
          `Conversation ${i}, turn ${k}: where is my order A-1042?`,
        ).catch(() => undefined);
        if (!r) {
          failed++;
          continue;
        }
        first.push(r.firstMs);
        times.push(r.turnMs);
        events += r.events;
      }
    }),
  );
  const wall = performance.now() - start;
  const after = await statsOf(t);
  if (failed > 0) console.error(`  (${t.name}: ${failed} turns cut by a reset connection, not counted)`);
  return {
    turnsPerSec: (n * turns - failed) / (wall / 1000),
    first,
    turns: times,
    events,
    cpuUs: after.cpuUs - before.cpuUs,
    bareCpuUs: options.bare === false ? 0 : await bareCpuUs(t, n, turns, label),
  };
}

/** CPU µs per streamed event, and the part above the agent's own work (the HTTP layer's overhead). */
export const perEvent = (r: RoundResult): number => r.cpuUs / r.events;
export const overheadPerEvent = (r: RoundResult): number => (r.cpuUs - r.bareCpuUs) / r.events;
