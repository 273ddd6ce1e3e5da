import { describe, expect, it } from 'vitest';
import { post, readSome, readSse, testServer } from './test-support/server-fixtures.js';

const LONG = 'a fairly long message so that the answer streams in many small chunks over time';

describe('GET .../stream (re-join)', () => {
  it('gives a client that reconnects with Last-Event-ID what it missed, then the live events, nothing doubled', async () => {
    const { app } = testServer();
    const first = await post(
      app,
      '/v1/agents/slow/conversations/r1/messages',
      { message: LONG },
      { accept: 'text/event-stream' },
    );
    const seen = await readSome(first, 5);
    expect(seen).toHaveLength(5);
    const lastId = seen.at(-1)?.id as string;
    await new Promise((r) => setTimeout(r, 60));
    const again = await app.request('/v1/agents/slow/conversations/r1/stream', {
      headers: { 'last-event-id': lastId },
    });
    expect(again.status).toBe(200);
    const rest = await readSse(again);
    const all = [...seen, ...rest];
    expect(all.map((e) => e.id)).toEqual(all.map((_, i) => `1.0.${i}`));
    const text = all
      .filter((e) => e.event === 'textDelta')
      .map((e) => (e.data as { data: string }).data)
      .join('');
    expect(text).toBe(`You said: ${LONG}`);
    expect(all.at(-1)?.event).toBe('turnEnd');
  });

  it('without Last-Event-ID replays the running turn from its start', async () => {
    const { app } = testServer();
    const first = await post(
      app,
      '/v1/agents/slow/conversations/r2/messages',
      { message: LONG },
      { accept: 'text/event-stream' },
    );
    await readSome(first, 3);
    const joined = await readSse(await app.request('/v1/agents/slow/conversations/r2/stream'));
    expect(joined[0]).toMatchObject({ id: '1.0.0', event: 'turnStart' });
    expect(joined.at(-1)?.event).toBe('turnEnd');
  });

  it('after the turn ended, a client that missed its end gets the rest; one that saw it gets 204', async () => {
    const { app } = testServer();
    const res = await post(
      app,
      '/v1/agents/echo/conversations/r3/messages',
      { message: 'hi' },
      { accept: 'text/event-stream' },
    );
    const events = await readSse(res);
    const before = events.at(-3)?.id as string;
    const rest = await readSse(
      await app.request('/v1/agents/echo/conversations/r3/stream', { headers: { 'last-event-id': before } }),
    );
    expect(rest.map((e) => e.id)).toEqual(events.slice(-2).map((e) => e.id));
    const done = await app.request('/v1/agents/echo/conversations/r3/stream', {
      headers: { 'last-event-id': events.at(-1)?.id as string },
    });
    expect(done.status).toBe(204);
    expect((await app.request('/v1/agents/echo/conversations/r3/stream')).status).toBe(204);
  });

  it('404 for a conversation that does not exist; 400 for a bad format', async () => {
    const { app } = testServer();
    const missing = await app.request('/v1/agents/echo/conversations/nope/stream');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    await post(app, '/v1/agents/echo/conversations/r4/messages', { message: 'x' });
    const bad = await app.request('/v1/agents/echo/conversations/r4/stream?format=xml');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: 'query.format' });
  });
});

describe('keep-alive', () => {
  it('idle streams get SSE comments every heartbeatMs; clients ignore them', async () => {
    const { app } = testServer({ limits: { heartbeatMs: 10 } });
    const res = await post(
      app,
      '/v1/agents/slow/conversations/h1/messages',
      { message: LONG },
      { accept: 'text/event-stream' },
    );
    const text = await res.text();
    expect(text).toContain(': keep-alive\n\n');
    const events = await readSse(new Response(text));
    expect(events.at(-1)?.event).toBe('turnEnd');
  });
});
