import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.js';

// Loopback HTTP/2 workers that answer with their name and the body they got, behind the proxy.

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
});

async function startWorker(name: string): Promise<string> {
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (s) => sessions.add(s));
  server.on('stream', (stream, headers) => {
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => {
      stream.respond({ ':status': 200, 'x-worker': name });
      stream.end(`${name} ${String(headers[':method'])} ${String(headers[':path'])} ${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push({
    close: async () => {
      for (const s of sessions) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A URL nothing listens on. */
async function deadWorker(): Promise<string> {
  const server = http2.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return url;
}

type Answer = { status: number; body: string } | { reset: number };

async function post(proxy: RoundRobinProxy, path: string, body: string): Promise<Answer> {
  const client = http2.connect(proxy.url);
  client.on('error', () => undefined);
  try {
    return await new Promise<Answer>((resolve) => {
      const req = client.request({ ':method': 'POST', ':path': path });
      let status = 0;
      let text = '';
      req.setEncoding('utf8');
      req.on('response', (headers) => (status = Number(headers[':status'])));
      req.on('data', (chunk: string) => (text += chunk));
      req.on('error', () => undefined);
      req.on('close', () => resolve(status === 0 ? { reset: req.rstCode ?? -1 } : { status, body: text }));
      req.end(body);
    });
  } finally {
    client.close();
  }
}

async function proxyFor(workers: string[]): Promise<RoundRobinProxy> {
  const proxy = await startRoundRobinProxy(workers);
  opened.push(proxy);
  return proxy;
}

describe('startRoundRobinProxy', () => {
  it('needs a worker', async () => {
    await expect(startRoundRobinProxy([])).rejects.toThrow(/at least one worker/);
  });

  it('sends each stream to the next worker in turn, method, path and body as they came, and counts them', async () => {
    const proxy = await proxyFor([await startWorker('a'), await startWorker('b')]);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post(proxy, `/call/${i}`, `body ${i}`));
    expect(answers).toEqual([
      { status: 200, body: 'a POST /call/0 body 0' },
      { status: 200, body: 'b POST /call/1 body 1' },
      { status: 200, body: 'a POST /call/2 body 2' },
      { status: 200, body: 'b POST /call/3 body 3' },
    ]);
    expect(proxy.counts).toEqual([2, 2]);
  });

  it("keeps turns per service: one service's streams alternate even when another's fall between them", async () => {
    const proxy = await proxyFor([await startWorker('a'), await startWorker('b')]);
    const answers = [];
    for (const path of ['/invoke/run/go', '/invoke/node/go', '/invoke/run/go', '/invoke/node/go'])
      answers.push(await post(proxy, path, ''));
    // One turn for all would send both of node's to b (run, node, run, node = a, b, a, b).
    expect(answers.map((a) => ('body' in a ? a.body : a))).toEqual([
      'a POST /invoke/run/go ',
      'b POST /invoke/node/go ',
      'b POST /invoke/run/go ',
      'a POST /invoke/node/go ',
    ]);
  });

  it('resets the stream a dead worker got, and sends the next one to a live worker', async () => {
    const proxy = await proxyFor([await deadWorker(), await startWorker('live')]);
    const first = await post(proxy, '/x', 'one');
    expect(first).toEqual({ reset: http2.constants.NGHTTP2_INTERNAL_ERROR });
    expect(await post(proxy, '/y', 'two')).toEqual({ status: 200, body: 'live POST /y two' });
    expect(proxy.counts).toEqual([1, 1]);
  });
});
