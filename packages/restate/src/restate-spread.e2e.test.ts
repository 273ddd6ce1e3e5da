import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeTransition } from '@skein/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReply } from './index.js';
import type { RestateServer } from './testing/restate-server.js';
import { restateServer } from '../../../test/servers/index.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './testing/round-robin-proxy.js';
import { buildDeskGraph } from './test-support/scripted-parts.js';
import { freePort, startWorker, type WorkerProcess } from './test-support/worker-process.js';

// Two worker processes behind one deployment URL (a loopback HTTP/2 round-robin proxy, as a load
// balancer would be in production): the nodes of one graph run are Restate calls, spread over both.
// The server is the run's shared one: this file's workers name their services with a prefix of their own.

const PREFIX = 'spread_';

let server: RestateServer;
let proxy: RoundRobinProxy;
let dir = '';
const workers: WorkerProcess[] = [];
const traces: string[] = [];

const linesOf = async (file: string): Promise<string[]> =>
  (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
const modelsIn = async (file: string): Promise<string[]> =>
  (await linesOf(file)).filter((l) => l.startsWith('model ')).map((l) => l.split(' ')[1] ?? '');
const count = (all: string[], prefix: string): number => all.filter((l) => l.startsWith(prefix)).length;
const shape = (t: NodeTransition): unknown => ({ from: t.from, to: t.to, kind: t.kind });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-restate-spread-'));
  server = await restateServer();
  for (const name of ['a', 'b']) {
    const trace = join(dir, `${name}.log`);
    traces.push(trace);
    workers.push(
      await startWorker(await freePort(), {
        SKEIN_TRACE_FILE: trace,
        SKEIN_TOOL_DELAY_MS: '300',
        SKEIN_SERVICE_PREFIX: PREFIX,
      }),
    );
  }
  proxy = await startRoundRobinProxy(workers.map((w) => `http://127.0.0.1:${w.port}`));
  await server.register(proxy.url);
}, 240_000);

afterAll(async () => {
  for (const w of workers) await w.kill();
  await proxy?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('two workers sharing the parallel branches of a fan-out', () => {
  it('runs the nodes of one graph run on both workers, with the result of the in-process run', async () => {
    const task = 'Order 42 was charged twice';
    const reply = await server.call<RunReply>(`${PREFIX}desk/spread-1/run`, task);
    const local = await buildDeskGraph().invoke(task);
    expect(reply.status).toBe('completed');
    expect(reply.texts).toEqual(Object.fromEntries(Object.entries(local.results).map(([id, r]) => [id, r.text])));
    expect(reply.executionCount).toBe(local.executionCount);
    expect(reply.transitions.map(shape)).toEqual(local.transitions.map(shape));
    expect(reply.usage).toEqual(local.accumulatedUsage);
    // Each node ran once, in one of the two workers, and both workers ran some.
    const [a, b] = [await modelsIn(traces[0] ?? ''), await modelsIn(traces[1] ?? '')];
    expect([...a, ...b].sort()).toEqual(['audit', 'audit', 'billing', 'billing', 'summary', 'triage']);
    expect(a.length, `worker a ran ${a.join(', ')}; worker b ran ${b.join(', ')}`).toBeGreaterThan(0);
    expect(b.length, `worker a ran ${a.join(', ')}; worker b ran ${b.join(', ')}`).toBeGreaterThan(0);
  }, 60_000);

  it("answers the same with nodes spread and with every node in the run's worker", async () => {
    const [spread, inline] = await Promise.all([
      server.call<RunReply>(`${PREFIX}desk/spread-2/run`, 'Order 7'),
      server.call<RunReply>(`${PREFIX}deskInline/inline-2/run`, 'Order 7'),
    ]);
    expect(spread.texts).toEqual(inline.texts);
    expect(spread.transitions.map(shape)).toEqual(inline.transitions.map(shape));
  }, 60_000);

  it('finishes a run whose node was running on a worker killed with SIGKILL, on the other worker, without repeating finished steps', async () => {
    const task = 'Order 9 was charged twice';
    const seen = await Promise.all(traces.map(async (t) => (await linesOf(t)).length));
    const fresh = async (): Promise<string[][]> =>
      Promise.all(traces.map(async (t, k) => (await linesOf(t)).slice(seen[k])));
    const run = server.call<RunReply>(`${PREFIX}desk/failover-1/run`, task);
    let victim = -1;
    for (let i = 0; i < 400 && victim < 0; i++) {
      victim = (await fresh()).findIndex((lines) => lines.some((l) => l.startsWith('start ')));
      if (victim < 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(victim, 'no tool started').toBeGreaterThanOrEqual(0);
    await workers[victim]?.kill();
    const reply = await run;
    const local = await buildDeskGraph().invoke(task);
    expect(reply.status).toBe('completed');
    expect(reply.texts).toEqual(Object.fromEntries(Object.entries(local.results).map(([id, r]) => [id, r.text])));
    const after = (await fresh()).flat();
    // The killed attempt ended no tool; each tool ended once, and finished model calls were not repeated.
    expect(count(after, 'end lookup_order'), after.join('\n')).toBe(1);
    expect(count(after, 'end check_invoice'), after.join('\n')).toBe(1);
    expect(count(after, 'model triage'), after.join('\n')).toBe(1);
    expect(count(after, 'model summary'), after.join('\n')).toBe(1);
  }, 60_000);
});
