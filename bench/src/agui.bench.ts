/**
 * Per-call overhead of the AG-UI route (`POST /v1/agents/{name}/agui`) over loopback, against calling
 * the same agent in-process in the same run (the floor: a fresh Agent on a ScriptedModel and a fresh
 * in-memory session manager, as the server builds one per request, then `invoke`). Rows: the floor;
 * the server's plain JSON route (`.../messages`) for reference; the AG-UI route read by
 * `@ag-ui/client`'s `HttpAgent` (the client's parsing and checks included); the AG-UI route read as
 * raw SSE text (the server's side alone). Each call is a new thread (a new conversation: its index
 * entry, record and session written), the agent answers at once, so what is measured is the door.
 * Variants run interleaved, one batch each per round; medians of the rounds, as wall time and as this
 * process's CPU time (client and server run in it; CPU time is steadier when the machine is busy).
 */
import { HttpAgent } from '@ag-ui/client';
import { Agent, InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { createServer, serve } from '@skein/server';
import { table } from './measure.js';

const CALLS = Number(process.env['BENCH_AGUI_CALLS'] ?? 100);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);

const model = () => new ScriptedModel(['Hello! How can I help?'], { loop: true, record: false });
const repository = new InMemorySessionRepository();
const sessions = (sessionId: string) => new RepositorySessionManager({ sessionId, repository });

async function main(): Promise<void> {
  const app = createServer({
    agents: { support: ({ sessionManager }) => new Agent({ name: 'support', model: model(), sessionManager }) },
    sessions,
    limits: { turnsPerMinute: 1_000_000, replayRetentionMs: 1_000 },
    onError: () => undefined,
  });
  const running = await serve(app, { port: 0, handleSignals: false, log: null });
  let n = 0;
  const thread = (): string => `t${n++}`;
  const input = (threadId: string) => ({
    threadId,
    runId: `${threadId}-r`,
    messages: [{ id: 'u1', role: 'user', content: 'hi' }],
    tools: [],
    context: [],
  });
  const post = (path: string, body: unknown, accept = 'application/json') =>
    fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify(body),
    });
  const variants: [string, () => Promise<void>][] = [
    [
      'floor: in-process Agent.invoke (fresh agent + in-memory session)',
      async () => {
        const agent = new Agent({ name: 'support', model: model(), sessionManager: sessions(`f${n++}`) });
        await agent.invoke('hi');
      },
    ],
    [
      'POST .../messages (JSON answer), fetch',
      async () =>
        void (await (await post(`/v1/agents/support/conversations/${thread()}/messages`, { message: 'hi' })).text()),
    ],
    [
      'POST /v1/agents/support/agui, HttpAgent',
      async () => {
        const threadId = thread();
        const agent = new HttpAgent({ url: `${running.url}/v1/agents/support/agui`, threadId });
        agent.addMessage({ id: 'u1', role: 'user', content: 'hi' });
        await agent.runAgent({ runId: `${threadId}-r` });
      },
    ],
    [
      'POST /v1/agents/support/agui, raw SSE text',
      async () => void (await (await post('/v1/agents/support/agui', input(thread()), 'text/event-stream')).text()),
    ],
  ];
  for (const [, fn] of variants) for (let i = 0; i < 30; i++) await fn(); // warm-up (JIT, connections)
  const runs = variants.map((): number[] => []);
  const cpus = variants.map((): number[] => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, [, fn]] of variants.entries()) {
      const start = process.hrtime.bigint();
      const cpu = process.cpuUsage();
      for (let c = 0; c < CALLS; c++) await fn();
      const used = process.cpuUsage(cpu);
      runs[i]?.push(Number(process.hrtime.bigint() - start) / 1_000 / CALLS);
      cpus[i]?.push((used.user + used.system) / CALLS);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  const rows: (string | number)[][] = [['variant', 'wall µs/call', 'x floor', 'CPU µs/call', 'x floor']];
  const wallFloor = median(runs[0] ?? []);
  const cpuFloor = median(cpus[0] ?? []);
  for (const [i, [name]] of variants.entries()) {
    const wall = median(runs[i] ?? []);
    const cpu = median(cpus[i] ?? []);
    rows.push([name, Math.round(wall), (wall / wallFloor).toFixed(2), Math.round(cpu), (cpu / cpuFloor).toFixed(2)]);
  }
  console.log(`${CALLS} calls per batch, ${ROUNDS} rounds, medians`);
  table(rows);
  await running.stop();
}

await main();
