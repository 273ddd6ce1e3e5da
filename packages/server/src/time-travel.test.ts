import { describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder, type GraphState } from '@skein/graph';
import type { MultiAgentFactory } from './options.js';
import { echoModel, post, testServer } from './test-support/server-fixtures.js';

const routedTo = (topic: string) => (s: GraphState) => (s.results['triage']?.text ?? '').includes(`ROUTE: ${topic}`);

/** triage always says "ROUTE: refund"; billing and refund echo. */
const routed: MultiAgentFactory = ({ sessionManager }) =>
  new GraphBuilder()
    .setId('routed')
    .addNode(new Agent({ name: 'triage', model: new ScriptedModel(['ROUTE: refund'], { loop: true }) }), 'triage')
    .addNode(new Agent({ name: 'billing', model: echoModel() }), 'billing')
    .addNode(new Agent({ name: 'refund', model: echoModel() }), 'refund')
    .addEdge('triage', 'billing', routedTo('billing'))
    .addEdge('triage', 'refund', routedTo('refund'))
    .setSessionManager(sessionManager)
    .build();

const as = (user: string) => ({ 'x-user': user });

function server() {
  return testServer({
    graphs: { routed },
    authorize: (request) => {
      const user = request.headers.get('x-user');
      return user ? { id: user } : undefined;
    },
  });
}

const BASE = '/v1/graphs/routed/conversations';

type Step = { step: number; status: string; completed: string[] };

describe('time travel routes', () => {
  it('lists the steps, reads one, forks with an edited result into a new conversation that runs the other route', async () => {
    const { app } = server();
    const first = await post(app, `${BASE}/c1/messages`, { message: 'I was charged twice' }, as('alice'));
    expect(first.status).toBe(200);
    const history = (await (await app.request(`${BASE}/c1/history`, { headers: as('alice') })).json()) as {
      steps: Step[];
    };
    const triaged = history.steps.find((s) => s.completed.includes('triage') && !s.completed.includes('refund'));
    expect(triaged).toBeDefined();
    const state = (await (
      await app.request(`${BASE}/c1/history/${triaged?.step}`, { headers: as('alice') })
    ).json()) as { state: { results: Record<string, { text?: string }> } };
    expect(JSON.stringify(state.state.results['triage'])).toContain('ROUTE: refund');

    const forked = await post(
      app,
      `${BASE}/c1/fork`,
      { step: triaged?.step, to: 'c1-billing', edit: { results: { triage: 'ROUTE: billing' } } },
      as('alice'),
    );
    expect(forked.status).toBe(201);
    expect(await forked.json()).toMatchObject({ conversationId: 'c1-billing', forkedFrom: { conversationId: 'c1' } });
    const listed = (await (await app.request(BASE, { headers: as('alice') })).json()) as {
      conversations: { id: string }[];
    };
    expect(listed.conversations.map((c) => c.id)).toContain('c1-billing');

    const ran = (await (
      await post(app, `${BASE}/c1-billing/messages`, { message: 'continue' }, as('alice'))
    ).json()) as {
      status: string;
    };
    expect(ran.status).toBe('completed');
    const after = (await (await app.request(`${BASE}/c1-billing/history`, { headers: as('alice') })).json()) as {
      steps: (Step & { forkedFrom?: Record<string, unknown> })[];
    };
    const done = after.steps.at(-1);
    expect(done?.completed).toContain('billing');
    expect(done?.completed).not.toContain('refund');
    expect(after.steps[0]?.forkedFrom).toMatchObject({ step: triaged?.step });
    expect(after.steps[0]?.forkedFrom).not.toHaveProperty('sessionId');
  });

  it("another principal's conversation is a 404 on history, state and fork, and nothing is written", async () => {
    const { app, repository } = server();
    await post(app, `${BASE}/c2/messages`, { message: 'Refund me' }, as('alice'));
    for (const res of [
      await app.request(`${BASE}/c2/history`, { headers: as('mallory') }),
      await app.request(`${BASE}/c2/history/0`, { headers: as('mallory') }),
      await post(app, `${BASE}/c2/fork`, { step: 0, to: 'stolen' }, as('mallory')),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ field: 'path.id' });
    }
    expect(await repository.readSession(app.skein.sessionIdOf({ id: 'mallory' }, 'stolen'))).toBeUndefined();
    const mine = (await (await app.request(BASE, { headers: as('mallory') })).json()) as { conversations: unknown[] };
    expect(mine.conversations).toEqual([]);
  });

  it('answers bad input with problems naming the field', async () => {
    const { app } = server();
    await post(app, `${BASE}/c3/messages`, { message: 'Refund me' }, as('alice'));
    const cases: [() => Promise<Response> | Response, number, string][] = [
      [() => post(app, `${BASE}/c3/fork`, { step: -1, to: 'x' }, as('alice')), 400, 'body.step'],
      [() => post(app, `${BASE}/c3/fork`, { step: 0, to: '../x' }, as('alice')), 400, 'body.to'],
      [() => post(app, `${BASE}/c3/fork`, { step: 0, to: 'x', extra: 1 }, as('alice')), 400, 'body'],
      [
        () => post(app, `${BASE}/c3/fork`, { step: 0, to: 'x', edit: { results: { nobody: 'hi' } } }, as('alice')),
        400,
        'body.edit',
      ],
      [() => post(app, `${BASE}/c3/fork`, { step: 999, to: 'x' }, as('alice')), 404, 'body.step'],
      [() => post(app, `${BASE}/c3/fork`, { step: 0, to: 'c3' }, as('alice')), 409, 'body.to'],
      [() => app.request(`${BASE}/c3/history/abc`, { headers: as('alice') }), 400, 'path.step'],
      [() => app.request(`${BASE}/c3/history/999`, { headers: as('alice') }), 404, 'path.step'],
      [() => app.request('/v1/agents/echo/conversations/c3/history', { headers: as('alice') }), 409, 'path.id'],
    ];
    for (const [request, status, field] of cases) {
      const res = await request();
      const body = (await res.json()) as { field?: string; detail?: string };
      expect({ status: res.status, field: body.field }).toEqual({ status, field });
    }
    await post(app, '/v1/agents/echo/conversations/a1/messages', { message: 'hi' }, as('alice'));
    const agent = await app.request('/v1/agents/echo/conversations/a1/history', { headers: as('alice') });
    expect(agent.status).toBe(400);
    expect(await agent.json()).toMatchObject({ field: 'path.kind' });
  });

  it('lists the three routes in the OpenAPI document', async () => {
    const { app } = server();
    const doc = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, unknown> };
    const paths = Object.keys(doc.paths);
    expect(paths).toContain('/v1/{kind}/{name}/conversations/{id}/history');
    expect(paths).toContain('/v1/{kind}/{name}/conversations/{id}/history/{step}');
    expect(paths).toContain('/v1/{kind}/{name}/conversations/{id}/fork');
  });
});
