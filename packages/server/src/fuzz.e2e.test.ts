/**
 * HTTP fuzz against a real server on a real socket: hundreds of seeded requests, each wrong in at
 * least one way (body, id, kind, name, method, credentials, someone else's conversation), aimed at
 * every route. Checked: no response is a 5xx, every error is a problem document without a stack
 * trace, and the store holds exactly what it held before (file by file).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager } from '@skein/session-file';
import { createServer, serve, type RunningServer } from './index.js';
import { echoModel, refundModel, refundTool } from './test-support/server-fixtures.js';

const SEED = Number(process.env['SKEIN_FUZZ_SEED'] ?? 20261126);
const COUNT = Number(process.env['SKEIN_FUZZ_COUNT'] ?? 400);

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

interface Fuzzed {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const HOSTILE_IDS = [
  '..%2F..%2Fetc%2Fpasswd',
  'a%2Fb',
  'a%5Cb',
  'a%00b',
  '..',
  '.',
  '.hidden',
  'a..b',
  '%20',
  'x'.repeat(10_000),
  '%C3%BC',
  '-x',
  '%2e%2e',
  'a%0Ab',
  '%FF',
];
const BAD_BODIES = [
  '{"message": ',
  '',
  'null',
  '[]',
  '"text"',
  '{"message": 5}',
  '{"message": ""}',
  '{"message": [{"text": 1}]}',
  '{"message": [{"text": "a", "image": {}}]}',
  '{"message": [{"image": {"format": "bmp", "source": {"bytes": "x"}}}]}',
  '{"message": "x", "extra": true}',
  '{"message": "x", "wait": "yes"}',
  '{"answers": {}}',
  '{"answers": []}',
  '{"answers": {"a": 1}, "more": 1}',
  '{"messages": []}',
  '{"messages": [{"role": "robot", "parts": []}]}',
  '{"messages": [{"role": "user", "parts": [{"type": "file"}]}]}',
  '{"messages": [{"role": "user", "parts": []}], "trigger": "regenerate-message"}',
  '{"__proto__": {"message": "x"}}',
  '\u0000\u0001\u0002',
  '{"message": "' + 'x'.repeat(40_000) + '"}',
];
const SUFFIXES = ['messages', 'answers', 'stream', 'pending', 'cancel', 'ui', '', 'unknown'];
const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'multipart/form-data; boundary=x',
];

/** A request wrong in at least one way (so that none may store anything). */
function fuzzed(random: () => number, owned: string): Fuzzed {
  const defects = new Set<string>();
  while (defects.size === 0 || random() < 0.3)
    defects.add(pick(random, ['body', 'id', 'kind', 'name', 'method', 'auth', 'tenant', 'type', 'size', 'headers']));
  const kind = defects.has('kind')
    ? pick(random, ['robots', '', '..', '%2e%2e', 'agents%00', 'AGENTS'])
    : pick(random, ['agents', 'graphs']);
  const name = defects.has('name')
    ? pick(random, ['nobody', '__proto__', 'constructor', 'toString', 'n'.repeat(300), '%00'])
    : kind === 'graphs'
      ? 'desk'
      : pick(random, ['echo', 'refund']);
  const id = defects.has('id')
    ? pick(random, HOSTILE_IDS)
    : defects.has('tenant')
      ? owned
      : `fresh-${Math.floor(random() * 1e6)}`;
  const method = defects.has('method')
    ? pick(random, ['PUT', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE'])
    : pick(random, ['GET', 'POST', 'POST', 'POST', 'DELETE']);
  // Mostly the routes a method has, so that the checks behind routing are reached too.
  const chosen =
    random() < 0.8 && method === 'POST'
      ? pick(random, ['messages', 'answers', 'ui', 'cancel'])
      : pick(random, SUFFIXES);
  // Ids are per principal: a message to another's id starts one's own conversation (a valid request),
  // so the tenant defect answers or cancels what waits in the victim's conversation instead.
  const suffix = defects.has('tenant') && (chosen === 'messages' || chosen === 'ui') ? 'answers' : chosen;
  const path = `/v1/${kind}/${name}/conversations/${id}${suffix === '' ? '' : `/${suffix}`}`;
  const headers: Record<string, string> = {};
  if (!defects.has('auth')) headers['x-user'] = defects.has('tenant') || random() < 0.5 ? 'mallory' : 'eve';
  else if (random() < 0.5) headers['x-user'] = 'banned';
  headers['content-type'] = defects.has('type') ? pick(random, CONTENT_TYPES.slice(1)) : 'application/json';
  if (defects.has('headers') || random() < 0.2) {
    headers['last-event-id'] = pick(random, ['', 'x', '1.2', '9999999999.0.0', '-1.0.0', '1.0.0\u0000']).replace(
      '\u0000',
      '',
    );
    headers['traceparent'] = pick(random, ['00-zz-yy-01', 'garbage', `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`]);
    headers['accept'] = pick(random, ['text/event-stream', '*/*', 'application/xml']);
  }
  let body: string | Buffer | undefined;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    if (defects.has('size')) body = Buffer.alloc(1024 * 1024 + 10, 0x61);
    else if (
      defects.has('body') ||
      !(
        defects.has('id') ||
        defects.has('kind') ||
        defects.has('name') ||
        defects.has('auth') ||
        defects.has('tenant') ||
        defects.has('type') ||
        defects.has('method')
      )
    )
      body = pick(random, BAD_BODIES);
    else
      body = JSON.stringify(
        suffix === 'answers' ? { answers: { 'x#approval': { approved: true } } } : { message: 'hello' },
      );
  }
  return { method, path, headers, ...(body !== undefined ? { body } : {}) };
}

function send(url: string, f: Fuzzed): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${f.path}`, { method: f.method, headers: f.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }),
      );
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout: ${f.method} ${f.path.slice(0, 80)}`)));
    req.end(f.body);
  });
}

describe('HTTP fuzz', () => {
  let dir: string;
  let running: RunningServer;
  let owned: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skein-server-fuzz-'));
    const ledger = { refunds: [] as string[] };
    const app = createServer({
      agents: {
        echo: ({ sessionManager }) => new Agent({ name: 'echo', model: echoModel(), sessionManager }),
        refund: ({ sessionManager }) =>
          new Agent({ name: 'refund', model: refundModel(), tools: [refundTool(ledger)], sessionManager }),
      },
      graphs: {
        desk: ({ sessionManager }) =>
          new GraphBuilder()
            .addNode(new Agent({ name: 'only', model: echoModel() }))
            .setSessionManager(sessionManager)
            .build(),
      },
      sessions: (id) => new FileSessionManager({ sessionId: id, storageDir: dir }),
      authorize: (req) => {
        const user = req.headers.get('x-user');
        if (user === 'banned') throw new Error('banned');
        return user ?? undefined;
      },
      limits: { turnsPerMinute: 100_000 },
      onError: (error) => {
        throw new Error(`the server reported an error: ${String(error)}`);
      },
    });
    running = await serve(app, { port: 0, hostname: '127.0.0.1', handleSignals: false, log: null });
    owned = 'alice-conv';
    const res = await fetch(`${running.url}/v1/agents/refund/conversations/${owned}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'alice' },
      body: JSON.stringify({ message: 'Refund order 42, 80 EUR' }),
    });
    expect(await res.json()).toMatchObject({ status: 'interrupted' });
  });

  afterAll(async () => {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`${COUNT} seeded malformed requests (seed ${SEED}): 0 responses 5xx, problem documents without stack traces, 0 stored changes`, async () => {
    const before = snapshot(dir);
    const random = mulberry32(SEED);
    const statuses: Record<number, number> = {};
    for (let i = 0; i < COUNT; i++) {
      const f = fuzzed(random, owned);
      const res = await send(running.url, f);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (process.env['SKEIN_FUZZ_DEBUG'] && res.status < 300)
        console.log(
          `${res.status} ${f.method} ${f.path.slice(0, 100)} ${JSON.stringify(f.headers)} ${String(f.body ?? '').slice(0, 80)}`,
        );
      const what = `#${i} ${f.method} ${f.path.slice(0, 100)} ${JSON.stringify(f.headers)} ${String(f.body ?? '').slice(0, 80)} -> ${res.status} ${res.body.slice(0, 200)}`;
      expect(res.status, what).toBeLessThan(500);
      if (res.status >= 400 && f.method !== 'HEAD') {
        expect(res.type, what).toBe('application/problem+json');
        expect(res.body, what).not.toMatch(/\n\s+at |\.ts:\d+|node_modules/);
      }
    }
    const after = snapshot(dir);
    if (process.env['SKEIN_FUZZ_DEBUG']) console.log(Object.keys(after).filter((k) => !(k in before)));
    expect(after).toEqual(before);
    expect(Object.keys(statuses).every((s) => Number(s) < 500)).toBe(true);
    console.log(`fuzz seed ${SEED}: statuses ${JSON.stringify(statuses)}`);
  });
});
