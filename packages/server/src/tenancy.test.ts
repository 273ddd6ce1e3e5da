import { describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { post, testServer } from './test-support/server-fixtures.js';

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

  it("another principal's id answers as a free id does: 404 in every read, stream and approval; a message starts their own", async () => {
    const { app } = tenantServer();
    const asked = (await (
      await post(app, '/v1/agents/refund/conversations/t1/messages', { message: 'Refund 80 EUR' }, as('alice'))
    ).json()) as {
      interrupts: { id: string }[];
    };
    const interruptId = asked.interrupts[0]?.id as string;
    const base = '/v1/agents/refund/conversations/t1';
    const attempts = (id: string): (() => Promise<Response> | Response)[] => [
      () => post(app, `${base.replace('t1', id)}/cancel`, {}, as('mallory')),
      () => app.request(`${base.replace('t1', id)}/stream`, { headers: as('mallory') }),
      () => app.request(`${base.replace('t1', id)}/pending`, { headers: as('mallory') }),
      () => app.request(base.replace('t1', id), { headers: as('mallory') }),
      () => app.request(base.replace('t1', id), { method: 'DELETE', headers: as('mallory') }),
    ];
    // Alice's t1 and an id nobody took answer Mallory alike.
    for (const id of ['t1', 'free-id']) {
      for (const attempt of attempts(id)) {
        const res = await attempt();
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ type: 'https://skein.dev/problems#not-found', field: 'path.id' });
      }
      const answered = await post(
        app,
        `${base.replace('t1', id)}/answers`,
        { answers: { [interruptId]: { approved: true } } },
        as('mallory'),
      );
      expect([id, answered.status]).toEqual([id, 409]);
      expect(await answered.json()).toMatchObject({ type: 'https://skein.dev/problems#nothing-pending' });
    }
    const list = await (await app.request('/v1/agents/refund/conversations', { headers: as('mallory') })).json();
    expect(list).toEqual({ conversations: [] });
    // A message to t1 is Mallory's own new conversation t1: Alice's is untouched and still waits.
    const mine = await post(app, `${base}/messages`, { message: 'Refund 10 EUR' }, as('mallory'));
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ conversationId: 't1', status: 'completed' });
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
      await app.request('/v1/agents/slow/conversations/t2/stream', { headers: as('mallory') }),
      await post(app, '/v1/agents/slow/conversations/t2/cancel', {}, as('mallory')),
      await app.request('/v1/agents/slow/conversations/t2/pending', { headers: as('mallory') }),
    ])
      expect(res.status).toBe(404);
    // Mallory's own t2 does not wait for Alice's turn: it is another conversation.
    const own = await post(
      app,
      '/v1/agents/slow/conversations/t2/messages',
      { message: 'x', wait: true },
      as('mallory'),
    );
    expect(own.status).toBe(200);
    expect((await running).status).toBe(200);
  });

  it('the factory gets the principal, and the session in its namespace', async () => {
    let seen: unknown;
    const { app } = testServer({
      authorize: () => ({ id: 'bob', role: 'agent' }),
      agents: {
        who: ({ principal, sessionManager, conversationId, sessionId }) => {
          seen = { principal, conversationId, session: sessionManager.sessionId, sessionId };
          return new Agent({ model: new ScriptedModel(['hi']), sessionManager });
        },
      },
    });
    await post(app, '/v1/agents/who/conversations/t3/messages', { message: 'x' });
    const namespaced = app.skein.sessionIdOf({ id: 'bob' }, 't3');
    expect(namespaced).toMatch(/^[0-9a-f]{20}-t3$/);
    expect(app.skein.sessionIdOf('bob', 't3')).toBe(namespaced);
    expect(app.skein.sessionIdOf('alice', 't3')).not.toBe(namespaced);
    expect(seen).toEqual({
      principal: { id: 'bob', role: 'agent' },
      conversationId: 't3',
      session: namespaced,
      sessionId: namespaced,
    });
  });
});
