import { describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { post, testServer } from './server-fixtures.test-helpers.js';

function tenantServer() {
  return testServer({
    authorize: (request) => {
      const user = request.headers.get('x-user');
      if (user === 'banned') throw new Error('account suspended');
      if (user === 'weird') return { id: 42 } as never;
      return user ? { id: user, plan: 'pro' } : undefined;
    },
  });
}

const as = (user: string) => ({ 'x-user': user });

describe('tenancy', () => {
  it('401 without a principal, 403 when authorize throws, 500 (no details) for a principal without an id', async () => {
    const { app } = tenantServer();
    const none = await post(app, '/v1/agents/echo/conversations/t0/messages', { message: 'x' });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ status: 401, field: 'header.authorization' });
    const banned = await post(app, '/v1/agents/echo/conversations/t0/messages', { message: 'x' }, as('banned'));
    expect(banned.status).toBe(403);
    expect(await banned.json()).toMatchObject({ detail: 'The request is not allowed (account suspended).' });
    const weird = await post(app, '/v1/agents/echo/conversations/t0/messages', { message: 'x' }, as('weird'));
    expect(weird.status).toBe(500);
    expect(await weird.text()).not.toContain('authorize');
  });

  it('another principal gets 404 in every endpoint, stream and approvals included', async () => {
    const { app } = tenantServer();
    const asked = (await (
      await post(app, '/v1/agents/refund/conversations/t1/messages', { message: 'Refund 80 EUR' }, as('alice'))
    ).json()) as {
      interrupts: { id: string }[];
    };
    const interruptId = asked.interrupts[0]?.id as string;
    const base = '/v1/agents/refund/conversations/t1';
    const attempts: (() => Promise<Response> | Response)[] = [
      () => post(app, `${base}/messages`, { message: 'hi' }, as('mallory')),
      () => post(app, `${base}/answers`, { answers: { [interruptId]: { approved: true } } }, as('mallory')),
      () => post(app, `${base}/cancel`, {}, as('mallory')),
      () =>
        post(app, `${base}/ui`, { messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }] }, as('mallory')),
      () => app.request(`${base}/stream`, { headers: as('mallory') }),
      () => app.request(`${base}/pending`, { headers: as('mallory') }),
      () => app.request(base, { headers: as('mallory') }),
      () => app.request(base, { method: 'DELETE', headers: as('mallory') }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ type: 'https://skein.dev/problems#not-found', field: 'path.id' });
    }
    const list = await (await app.request('/v1/agents/refund/conversations', { headers: as('mallory') })).json();
    expect(list).toEqual({ conversations: [] });
    const own = await (await app.request('/v1/agents/refund/conversations', { headers: as('alice') })).json();
    expect(own).toMatchObject({ conversations: [{ id: 't1', title: 'Refund 80 EUR' }] });
    const pending = await (await app.request(`${base}/pending`, { headers: as('alice') })).json();
    expect(pending).toMatchObject({ interrupts: [{ id: interruptId }] });
  });

  it('a running turn of another principal is not revealed either', async () => {
    const { app } = tenantServer();
    const running = post(
      app,
      '/v1/agents/slow/conversations/t2/messages',
      { message: 'a long enough message to stream a while' },
      as('alice'),
    );
    await new Promise((r) => setTimeout(r, 20));
    for (const res of [
      await post(app, '/v1/agents/slow/conversations/t2/messages', { message: 'x', wait: true }, as('mallory')),
      await app.request('/v1/agents/slow/conversations/t2/stream', { headers: as('mallory') }),
      await post(app, '/v1/agents/slow/conversations/t2/cancel', {}, as('mallory')),
    ])
      expect(res.status).toBe(404);
    expect((await running).status).toBe(200);
  });

  it('the factory gets the principal', async () => {
    let seen: unknown;
    const { app } = testServer({
      authorize: () => ({ id: 'bob', role: 'agent' }),
      agents: {
        who: ({ principal, sessionManager, conversationId }) => {
          seen = { principal, conversationId, session: sessionManager.sessionId };
          return new Agent({ model: new ScriptedModel(['hi']), sessionManager });
        },
      },
    });
    await post(app, '/v1/agents/who/conversations/t3/messages', { message: 'x' });
    expect(seen).toEqual({ principal: { id: 'bob', role: 'agent' }, conversationId: 't3', session: 't3' });
  });
});
