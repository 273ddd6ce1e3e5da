import { describe, expect, it } from 'vitest';
import type { SessionRepository } from '@skein/core';
import { post, testServer } from './test-support/server-fixtures.js';

async function problem(res: Response): Promise<Record<string, unknown>> {
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.(ts|js):\d+/);
  return body;
}

async function nothingStored(repository: SessionRepository, ids: string[]): Promise<void> {
  for (const id of ids) {
    if (/^[A-Za-z0-9][A-Za-z0-9_.@=+-]{0,199}$/.test(id) && !id.includes('..'))
      expect(await repository.readSession(id)).toBeUndefined();
  }
}

describe('bad input', () => {
  it('malformed JSON, wrong types, unknown fields, missing content-type: 4xx naming the field', async () => {
    const { app, repository } = testServer();
    const url = '/v1/agents/echo/conversations/b1/messages';
    const cases: [RequestInit, number, string][] = [
      [{ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message": ' }, 400, 'body'],
      [{ method: 'POST', headers: { 'content-type': 'application/json' }, body: '' }, 400, 'body'],
      [
        { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"message":"x"}' },
        415,
        'header.content-type',
      ],
      [
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message": 5}' },
        400,
        'body.message',
      ],
      [
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message": ""}' },
        400,
        'body.message',
      ],
      [
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message": [{"text": 1}]}' },
        400,
        'body.message',
      ],
      [
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message": "x", "extra": 1}' },
        400,
        'body',
      ],
      [{ method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }, 400, 'body'],
      [
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message": "x", "wait": "yes"}' },
        400,
        'body.wait',
      ],
    ];
    for (const [init, status, field] of cases) {
      const res = await app.request(url, init);
      expect(res.status, String(init.body)).toBe(status);
      expect(await problem(res)).toMatchObject({ status, field });
    }
    await nothingStored(repository, ['b1']);
  });

  it('unknown kinds, agents and routes: 404', async () => {
    const { app } = testServer();
    expect(await problem(await post(app, '/v1/robots/echo/conversations/x/messages', { message: 'x' }))).toMatchObject({
      status: 404,
      field: 'path.kind',
    });
    expect(
      await problem(await post(app, '/v1/agents/nobody/conversations/x/messages', { message: 'x' })),
    ).toMatchObject({ status: 404, field: 'path.name' });
    expect(
      await problem(await post(app, '/v1/agents/__proto__/conversations/x/messages', { message: 'x' })),
    ).toMatchObject({ status: 404, field: 'path.name' });
    expect(
      await problem(await post(app, '/v1/agents/constructor/conversations/x/messages', { message: 'x' })),
    ).toMatchObject({ status: 404 });
    expect(await problem(await app.request('/v2/whatever'))).toMatchObject({ status: 404, field: 'path' });
    expect(await problem(await app.request('/v1/agents/echo/conversations/x/messages'))).toMatchObject({ status: 404 });
  });

  it('hostile conversation ids: path separators, NUL, dots, 10 KB', async () => {
    const { app, repository } = testServer();
    const ids = [
      '..%2F..%2Fetc',
      'a%2Fb',
      'a%5Cb',
      'a%00b',
      '..',
      '.hidden',
      'a..b',
      '%20x',
      'x'.repeat(10_000),
      'ü',
      '-x',
    ];
    for (const id of ids) {
      const res = await post(app, `/v1/agents/echo/conversations/${id}/messages`, { message: 'x' });
      expect(res.status, id.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      const body = await problem(res);
      if (res.status === 400) expect(body['field']).toBe('path.id');
      expect(String(body['detail']).length).toBeLessThan(400);
    }
    await nothingStored(repository, ids.map(decodeURIComponent));
  });

  it('body and message size limits: 413', async () => {
    const { app, repository } = testServer({ limits: { maxBodyBytes: 2_000, maxMessageChars: 100 } });
    const big = await post(app, '/v1/agents/echo/conversations/s1/messages', { message: 'x'.repeat(5_000) });
    expect(await problem(big)).toMatchObject({ status: 413, field: 'body' });
    const long = await post(app, '/v1/agents/echo/conversations/s1/messages', { message: 'x'.repeat(101) });
    expect(await problem(long)).toMatchObject({ status: 413, field: 'body.message' });
    await nothingStored(repository, ['s1']);
  });

  it('turns per principal per minute: 429 with retry-after; concurrent runs: 503 with retry-after', async () => {
    const { app } = testServer({ limits: { turnsPerMinute: 2 } });
    expect((await post(app, '/v1/agents/echo/conversations/l1/messages', { message: 'a' })).status).toBe(200);
    expect((await post(app, '/v1/agents/echo/conversations/l1/messages', { message: 'b' })).status).toBe(200);
    const third = await post(app, '/v1/agents/echo/conversations/l1/messages', { message: 'c' });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await problem(third)).toMatchObject({ limit: 2 });

    const busy = testServer({ limits: { maxConcurrentRuns: 1 } }).app;
    const running = post(busy, '/v1/agents/slow/conversations/l2/messages', {
      message: 'a long message to keep it running',
    });
    await new Promise((r) => setTimeout(r, 20));
    const other = await post(busy, '/v1/agents/echo/conversations/l3/messages', { message: 'x' });
    expect(other.status).toBe(503);
    expect(other.headers.get('retry-after')).toBe('1');
    expect((await running).status).toBe(200);
  });

  it('a factory that throws is a 500 without details; the error goes to onError', async () => {
    const errors: unknown[] = [];
    const { app } = testServer({
      agents: {
        broken: () => {
          throw new Error('secret database password in message');
        },
      },
      onError: (error) => errors.push(error),
    });
    const res = await post(app, '/v1/agents/broken/conversations/f1/messages', { message: 'x' });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret');
    expect(JSON.parse(text)).toMatchObject({ type: 'https://skein.dev/problems#internal', status: 500 });
    expect(errors).toHaveLength(1);
  });
});

describe('content types', () => {
  it('JSON in another charset than UTF-8 is refused (415), UTF-8 declared or not is taken', async () => {
    const { app } = testServer();
    const send = (type: string) =>
      app.request('/v1/agents/echo/conversations/ct/messages', {
        method: 'POST',
        headers: { 'content-type': type },
        body: '{"message":"x"}',
      });
    expect((await send('application/json; charset=utf-16')).status).toBe(415);
    expect((await send('application/json; charset=latin1')).status).toBe(415);
    expect((await send('application/json; charset="UTF-8"')).status).toBe(200);
    expect((await send('application/merge-patch+json')).status).toBe(200);
  });
});
