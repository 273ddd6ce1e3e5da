import { describe, expect, it } from 'vitest';
import { post, testServer } from './test-support/server-fixtures.js';

// Every body is bounded before it is read (size) and before it is validated (depth); ids of the
// server's own sessions are no conversation ids. A refused request stores nothing.

/** JSON text of `levels` objects inside one another (made as text: stringifying such a value overflows the stack). */
const deep = (levels: number): string => `${'{"a":'.repeat(levels)}true${'}'.repeat(levels)}`;

const postText = (app: ReturnType<typeof testServer>['app'], path: string, body: string) =>
  app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('bodies and ids a hostile client sends', () => {
  it('deep JSON is a 400 naming the body, before validation, on every route that reads one', async () => {
    const { app, ledger } = testServer();
    const asked = (await (
      await post(app, '/v1/agents/refund/conversations/d1/messages', { message: 'Refund 80 EUR' })
    ).json()) as { interrupts: { id: string }[] };
    const id = asked.interrupts[0]?.id as string;
    const bodies: [string, string][] = [
      ['/v1/agents/refund/conversations/d1/answers', `{"answers":{${JSON.stringify(id)}:${deep(1_750)}}}`],
      ['/v1/agents/echo/conversations/d2/messages', `{"message":"hi","wait":${deep(5_000)}}`],
      ['/v1/agents/echo/conversations/d3/ui', `{"messages":[{"role":"user","parts":[${deep(3_000)}]}]}`],
    ];
    for (const [path, body] of bodies) {
      const response = await postText(app, path, body);
      expect([path, response.status]).toEqual([path, 400]);
      expect(await response.json()).toMatchObject({ field: 'body', detail: expect.stringContaining('64 levels') });
    }
    // Within the limit, the same answer goes through.
    const fine = await postText(
      app,
      '/v1/agents/refund/conversations/d1/answers',
      `{"answers":{${JSON.stringify(id)}:{"approved":true,"note":${deep(40)}}}}`,
    );
    expect(fine.status).toBe(200);
    expect(ledger.refunds).toEqual(['42:80']);
  });

  it('a body over the limit is a 413 on every route, before anything reads it', async () => {
    const { app } = testServer({ limits: { maxBodyBytes: 1_000 } });
    const big = JSON.stringify({ message: 'x'.repeat(2_000) });
    for (const path of ['messages', 'answers', 'ui', 'cancel']) {
      const response = await app.request(`/v1/agents/echo/conversations/b1/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
        body: big,
      });
      expect([path, response.status]).toEqual([path, 413]);
    }
    const conversations = await (await app.request('/v1/agents/echo/conversations')).json();
    expect(conversations).toEqual({ conversations: [] });
  });

  it("the server's own sessions are no conversations: ids starting with skein- are refused everywhere", async () => {
    const { app } = testServer({ authorize: (r) => r.headers.get('x-user') ?? undefined });
    const index = 'skein-index-0123456789abcdef0123456789abcdef01234567';
    const as = { 'x-user': 'alice' };
    for (const id of [index, 'SKEIN-index-x', 'skein-server']) {
      const responses = [
        await post(app, `/v1/agents/echo/conversations/${id}/messages`, { message: 'hi' }, as),
        await app.request(`/v1/agents/echo/conversations/${id}`, { method: 'DELETE', headers: as }),
        await app.request(`/v1/agents/echo/conversations/${id}`, { headers: as }),
      ];
      for (const response of responses) {
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ field: 'path.id', detail: expect.stringContaining('skein-') });
      }
    }
  });
});
