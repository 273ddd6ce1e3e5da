/**
 * The process `server.bench.ts` measures: `floor` (a bare node:http SSE server running the same agent
 * turn per request, writing each stream event as one `data:` frame) or `skein` (`@skein/server`'s
 * createServer + serve). Both build a fresh Agent per request on a fresh session manager of one store,
 * closed after the turn, so the difference is the HTTP layer. `BENCH_STORE`: `memory` (default) or
 * `sqlite` (one database file in `BENCH_SQLITE_DIR`, group commit, `synchronous=FULL` unless `BENCH_SQLITE_SYNC=NORMAL`).
 * `BENCH_SERVER_MODULE`: the `@skein/server` entry to load instead (another tree's `src/index.ts`,
 * for before/after pairs in one run). Agent `support`: one tool, two model calls of
 * `BENCH_MODEL_DELAY_MS` (default 20); agent `probe`: one model call that answers at once.
 * `GET /__stats` gives CPU time, heap and open descriptors; `POST /__bare` runs the same turns
 * without HTTP (the agent's own cost).
 */
import { readdirSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  Agent,
  InMemorySessionRepository,
  RepositorySessionManager,
  tool,
  type SessionManager,
  type SessionRepository,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { SqliteSessionRepository } from '@skein/session-sqlite';

const MODEL_DELAY_MS = Number(process.env['BENCH_MODEL_DELAY_MS'] ?? 20);
const mode = process.argv[2] ?? 'floor';
const store = process.env['BENCH_STORE'] ?? 'memory';

function repositoryOf(): SessionRepository {
  if (store === 'memory') return new InMemorySessionRepository();
  const dir = process.env['BENCH_SQLITE_DIR'];
  if (store !== 'sqlite' || !dir) throw new Error(`BENCH_STORE=${store}: use memory, or sqlite with BENCH_SQLITE_DIR`);
  return new SqliteSessionRepository({
    path: path.join(dir, `${mode}-${process.pid}.db`),
    synchronous: process.env['BENCH_SQLITE_SYNC'] === 'NORMAL' ? 'NORMAL' : 'FULL',
  });
}

const repository = repositoryOf();
const sessions = (id: string): SessionManager => new RepositorySessionManager({ sessionId: id, repository });
const gc = (globalThis as { gc?: () => void }).gc;

const lookup = tool({
  name: 'lookup_order',
  description: 'Looks an order up',
  inputSchema: z.object({ orderId: z.string() }),
  callback: ({ orderId }) => ({ orderId, status: 'shipped', items: 2 }),
});

function agentOn(sessionManager: SessionManager): Agent {
  const model = new ScriptedModel(
    [
      {
        text: 'Let me look that up.',
        toolUses: [{ name: 'lookup_order', input: { orderId: 'A-1042' } }],
        delayMs: MODEL_DELAY_MS,
      },
      { text: 'Your order A-1042 has shipped; two items are on their way.', delayMs: MODEL_DELAY_MS },
    ],
    { loop: true, record: false },
  );
  return new Agent({ name: 'support', model, tools: [lookup], systemPrompt: 'You help customers.', sessionManager });
}

function probeOn(sessionManager: SessionManager): Agent {
  const model = new ScriptedModel(['Still here.'], { loop: true, record: false });
  return new Agent({ name: 'probe', model, sessionManager });
}

function stats(): string {
  gc?.();
  const cpu = process.cpuUsage();
  const fds = readdirSync('/proc/self/fd').length;
  return JSON.stringify({ cpuUs: cpu.user + cpu.system, heap: process.memoryUsage().heapUsed, fds });
}

async function bare(n: number, turns: number, label: string): Promise<string> {
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      for (let t = 0; t < turns; t++) {
        const manager = sessions(`bare-${label}-${i}`);
        const agent = agentOn(manager);
        for await (const _event of agent.stream(`turn ${t}: where is my order A-1042?`)) void _event;
        await manager.close?.();
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return JSON.stringify({ cpuUs: used.user + used.system });
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

async function floorHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/__stats') return void res.end(stats());
  if (url.pathname === '/__bare') {
    const q = url.searchParams;
    return void res.end(await bare(Number(q.get('n')), Number(q.get('turns')), String(q.get('label'))));
  }
  const match = /^\/v1\/agents\/(support|probe)\/conversations\/([^/]+)\/messages$/.exec(url.pathname);
  if (!match || req.method !== 'POST') return void res.writeHead(404).end();
  const { message } = JSON.parse(await readBody(req)) as { message: string };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const manager = sessions(match[2] as string);
  const agent = match[1] === 'probe' ? probeOn(manager) : agentOn(manager);
  for await (const event of agent.stream(message)) {
    if (event.type === 'modelStreamEvent') continue;
    res.write(`data: ${JSON.stringify(event)}\n\n`);
  }
  await manager.close?.();
  res.end();
}

async function startSkein(): Promise<string> {
  const entry = process.env['BENCH_SERVER_MODULE'];
  const server = (
    entry ? await import(pathToFileURL(entry).href) : await import('@skein/server')
  ) as typeof import('@skein/server');
  const app = server.createServer({
    agents: {
      support: ({ sessionManager }) => agentOn(sessionManager),
      probe: ({ sessionManager }) => probeOn(sessionManager),
    },
    sessions,
    limits: { turnsPerMinute: 1_000_000, maxConcurrentRuns: 100_000 },
  });
  app.get('/__stats', (c) => c.body(stats()));
  app.post('/__bare', async (c) =>
    c.body(await bare(Number(c.req.query('n')), Number(c.req.query('turns')), String(c.req.query('label')))),
  );
  return (await server.serve(app, { port: 0, log: null, handleSignals: false })).url;
}

if (mode === 'floor') {
  const server = createHttpServer((req, res) => void floorHandler(req, res));
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
  });
} else {
  process.stdout.write(`${JSON.stringify({ url: await startSkein() })}\n`);
}

// Exit normally on SIGTERM (a --cpu-prof profile is written on a normal exit).
process.on('SIGTERM', () => process.exit(0));
