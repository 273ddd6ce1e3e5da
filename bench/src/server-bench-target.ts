/**
 * The process `server.bench.ts` measures: `floor` (a bare node:http SSE server running the same agent
 * turn per request, writing each stream event as one `data:` frame) or `skein` (`@skein/server`'s
 * createServer + serve). Both build a fresh Agent per request on a fresh session manager of one
 * in-memory store, so the difference is the HTTP layer. `GET /__stats` gives CPU time and heap;
 * `POST /__bare` runs the same turns without HTTP (the agent's own cost).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { Agent, InMemorySessionRepository, RepositorySessionManager, tool, type SessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { createServer, serve } from '@skein/server';

const MODEL_DELAY_MS = Number(process.env['BENCH_MODEL_DELAY_MS'] ?? 20);
const mode = process.argv[2] ?? 'floor';
const repository = new InMemorySessionRepository();
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

function stats(): string {
  gc?.();
  const cpu = process.cpuUsage();
  return JSON.stringify({ cpuUs: cpu.user + cpu.system, heap: process.memoryUsage().heapUsed });
}

async function bare(n: number, turns: number, label: string): Promise<string> {
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      for (let t = 0; t < turns; t++) {
        const agent = agentOn(sessions(`bare-${label}-${i}`));
        for await (const _event of agent.stream(`turn ${t}: where is my order A-1042?`)) void _event;
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
  if (url.pathname === '/__bare')
    return void res.end(
      await bare(
        Number(url.searchParams.get('n')),
        Number(url.searchParams.get('turns')),
        String(url.searchParams.get('label')),
      ),
    );
  const match = /^\/v1\/agents\/support\/conversations\/([^/]+)\/messages$/.exec(url.pathname);
  if (!match || req.method !== 'POST') return void res.writeHead(404).end();
  const { message } = JSON.parse(await readBody(req)) as { message: string };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const agent = agentOn(sessions(match[1] as string));
  for await (const event of agent.stream(message)) {
    if (event.type === 'modelStreamEvent') continue;
    res.write(`data: ${JSON.stringify(event)}\n\n`);
  }
  res.end();
}

if (mode === 'floor') {
  const server = createHttpServer((req, res) => void floorHandler(req, res));
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
  });
} else {
  const app = createServer({
    agents: { support: ({ sessionManager }) => agentOn(sessionManager) },
    sessions,
    limits: { turnsPerMinute: 1_000_000, maxConcurrentRuns: 100_000 },
  });
  app.get('/__stats', (c) => c.body(stats()));
  app.post('/__bare', async (c) =>
    c.body(await bare(Number(c.req.query('n')), Number(c.req.query('turns')), String(c.req.query('label')))),
  );
  const running = await serve(app, { port: 0, log: null, handleSignals: false });
  process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
}

// Exit normally on SIGTERM (a --cpu-prof profile is written on a normal exit).
process.on('SIGTERM', () => process.exit(0));
