import { describe, expect, it } from 'vitest';
import type { AnswerCheck } from '@skein/core';
import type { RouteInfo } from './index.js';
import { post, testServer } from './test-support/server-fixtures.js';

// Who may answer an approval is decided by the server, once, on the request as it routed it: the
// `authorizeAnswer` rule applies to every door that answers (`/answers`, the UI stream's approval
// parts), whatever the path's encoding or the body's.

const customer = { 'x-user': 'ben' };
const supervisor = { 'x-user': 'ben', 'x-role': 'supervisor' };

function guardedServer() {
  const routes: RouteInfo[] = [];
  const checks: AnswerCheck[] = [];
  const server = testServer({
    authorize: (request, route) => {
      routes.push(route);
      const user = request.headers.get('x-user');
      if (!user) return undefined;
      return { id: user, supervisor: request.headers.get('x-role') === 'supervisor' };
    },
    authorizeAnswer: (check) => {
      checks.push(check);
      return typeof check.principal === 'object' && check.principal['supervisor'] === true;
    },
  });
  return { ...server, routes, checks };
}

async function waitingRefund(app: ReturnType<typeof guardedServer>['app'], id: string): Promise<string> {
  const asked = (await (
    await post(app, `/v1/agents/refund/conversations/${id}/messages`, { message: 'Refund 80 EUR' }, customer)
  ).json()) as { status: string; interrupts: { id: string }[] };
  expect(asked.status).toBe('interrupted');
  return asked.interrupts[0]?.id as string;
}

const approvalPart = (approvalId: string) => ({
  messages: [
    {
      id: 'turn-1',
      role: 'assistant',
      parts: [
        {
          type: 'dynamic-tool',
          toolName: 'issue_refund',
          toolCallId: 'x',
          state: 'approval-responded',
          input: {},
          approval: { id: approvalId, approved: true },
        },
      ],
    },
  ],
});

function raw(app: ReturnType<typeof guardedServer>['app'], path: string, body: string | Uint8Array, headers = {}) {
  return app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...customer, ...headers },
    body,
  });
}

describe('who may answer an approval (authorizeAnswer)', () => {
  it('refuses a customer on every door and encoding, runs and stores nothing; the supervisor answers', async () => {
    const { app, ledger, checks } = guardedServer();
    const interruptId = await waitingRefund(app, 'r1');
    const base = '/v1/agents/refund/conversations/r1';
    const answers = JSON.stringify({ answers: { [interruptId]: { approved: true } } });
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(answers)]);
    const ui = JSON.stringify(approvalPart(interruptId));
    const refused = [
      await raw(app, `${base}/answers`, answers),
      await raw(app, `${base}/answer%73`, answers),
      await raw(app, `${base}/%61nswers`, answers),
      await raw(app, `${base}/answers`, bom),
      await raw(app, `${base}/ui`, ui),
      await raw(app, `${base}/u%69`, ui),
      await raw(app, `${base}/ui`, new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(ui)])),
      await raw(app, `${base}/answers`, answers, { 'content-type': 'application/json; charset=UTF-8' }),
    ];
    for (const response of refused) {
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ type: 'https://skein.dev/problems#answer-forbidden' });
    }
    // Other spellings are other routes (or ids), never an answer.
    for (const path of [`${base}/answer%2573`, `${base}/answers/`, `${base}/ANSWERS`, `${base}%2Fanswers`]) {
      const response = await raw(app, path, answers);
      expect([path, response.status]).toEqual([path, expect.toBeOneOf([400, 404])]);
    }
    expect(ledger.refunds).toEqual([]);
    expect(checks.every((c) => c.interrupt.id === interruptId && c.conversationId === 'r1')).toBe(true);
    expect(new Set(checks.map((c) => c.door))).toEqual(new Set(['answers', 'ui']));
    const pending = await (await app.request(`${base}/pending`, { headers: customer })).json();
    expect(pending).toMatchObject({ interrupts: [{ id: interruptId }] });
    const conversation = (await (await app.request(base, { headers: customer })).json()) as { turns: unknown[] };
    expect(conversation.turns).toHaveLength(1);

    const approved = await raw(app, `${base}/answers`, answers, supervisor);
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ status: 'completed' });
    expect(ledger.refunds).toEqual(['42:80']);
  });

  it('gives authorize the routed action, decoded', async () => {
    const { app, routes } = guardedServer();
    await raw(app, '/v1/agents/refund/conversations/r2/answer%73', '{"answers":{"x":true}}');
    await app.request('/v1/agents/refund/conversations/r2/pendin%67', { headers: customer });
    await app.request('/v1/agents/refund/conversations', { headers: customer });
    expect(routes.map((r) => r.action)).toEqual(['answers', 'pending', 'list']);
    expect(routes[0]).toEqual({ action: 'answers', kind: 'agents', name: 'refund', conversationId: 'r2' });
  });
});

describe('interrupt ids the server hands out', () => {
  it('carry the turn: a replayed answer, an id of another conversation and a bare core id do not fit', async () => {
    const { app, ledger } = testServer();
    const first = await waitingRefund(app, 'c1');
    const other = await waitingRefund(app, 'c2');
    expect(first).toMatch(/#approval~[\w-]{12}$/);
    expect(first.split('~')[0]).toBe(other.split('~')[0]); // core's ids are the same in both conversations
    const answer = (id: string, conversation: string) =>
      post(app, `/v1/agents/refund/conversations/${conversation}/answers`, { answers: { [id]: { approved: true } } });

    for (const id of [other, first.split('~')[0] as string, `${first}x`]) {
      const response = await answer(id, 'c1');
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ pending: [first] });
    }
    expect(ledger.refunds).toEqual([]);
    expect((await answer(first, 'c1')).status).toBe(200);
    expect(ledger.refunds).toEqual(['42:80']);
    // Replayed after it was answered: nothing waits any more.
    expect((await answer(first, 'c1')).status).toBe(409);
    // A new approval in the same conversation has a new id: the old answer does not fit it.
    const again = (await (
      await post(app, '/v1/agents/refund/conversations/c1/messages', { message: 'Refund 90 EUR' })
    ).json()) as { interrupts: { id: string }[] };
    const next = again.interrupts[0]?.id as string;
    expect(next.split('~')[0]).not.toBe('');
    expect(next).not.toBe(first);
    expect((await answer(first, 'c1')).status).toBe(422);
    expect(ledger.refunds).toEqual(['42:80']);
  });
});
