import { describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { trajectory } from '@skein/evals';
import { GraphBuilder, type GraphState } from '@skein/graph';
import type { EvalSet, MultiAgentFactory } from './options.js';
import { echoModel, post, testServer } from './test-support/server-fixtures.js';

const routedTo = (topic: string) => (s: GraphState) => (s.results['triage']?.text ?? '').includes(`ROUTE: ${topic}`);

/** A desk whose triage routes where `desk.route` says (changed between runs: a prompt edit). */
const desk = { route: 'refund' };
const routed: MultiAgentFactory = ({ sessionManager }) =>
  new GraphBuilder()
    .setId('routed')
    .addNode(
      new Agent({ name: 'triage', model: new ScriptedModel([`ROUTE: ${desk.route}`], { loop: true }) }),
      'triage',
    )
    .addNode(new Agent({ name: 'billing', model: echoModel() }), 'billing')
    .addNode(new Agent({ name: 'refund', model: echoModel() }), 'refund')
    .addEdge('triage', 'billing', routedTo('billing'))
    .addEdge('triage', 'refund', routedTo('refund'))
    .setSessionManager(sessionManager)
    .build();

const set: EvalSet = {
  name: 'routing',
  cases: [
    {
      id: 'refund',
      input: 'Refund order 7',
      tags: ['refund'],
      expect: { trajectory: { nodes: ['triage', 'refund'] } },
    },
    {
      id: 'billing',
      input: 'Charged twice',
      tags: ['billing'],
      expect: { trajectory: { nodes: ['triage', 'billing'] } },
    },
  ],
  scorers: [trajectory()],
};

const as = (user: string) => ({ 'x-user': user });
const EVALS = '/v1/graphs/routed/evals';

function server() {
  return testServer({
    graphs: { routed },
    evals: ({ kind }) => (kind === 'graphs' ? set : undefined),
    authorize: (request) => {
      const user = request.headers.get('x-user');
      return user ? { id: user } : undefined;
    },
  });
}

interface CaseRow {
  id: string;
  status: string;
  reasons: Record<string, string>;
  sessionIds: string[];
}
interface Run {
  id: string;
  summary: { passed: boolean; cases: CaseRow[] };
  changes?: { previous: string; fixed: string[]; newlyFailing: string[] };
}

describe('evals routes', () => {
  it("runs the target's eval set, each case a conversation of the principal, and compares with the previous run", async () => {
    const { app } = server();
    desk.route = 'refund';
    const first = await post(app, EVALS, {}, as('alice'));
    expect(first.status).toBe(201);
    const { run } = (await first.json()) as { run: Run };
    const byId = Object.fromEntries(run.summary.cases.map((c) => [c.id, c]));
    expect(byId['refund']?.status).toBe('passed');
    expect(byId['billing']?.status).toBe('failed');
    expect(byId['billing']?.reasons['trajectory']).toMatch(/ran triage > refund; expected exactly triage > billing/);
    expect(run.changes).toBeUndefined();

    // The case's run is a conversation of alice's: read, listed; bob does not see it.
    const conversation = byId['billing']?.sessionIds[0] ?? '';
    const read = await app.request(`/v1/graphs/routed/conversations/${conversation}`, { headers: as('alice') });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      status: 'completed',
      turns: [{ prompt: 'Charged twice', status: 'completed' }],
    });
    const list = (await (await app.request('/v1/graphs/routed/conversations', { headers: as('alice') })).json()) as {
      conversations: { id: string }[];
    };
    expect(list.conversations.map((c) => c.id)).toContain(conversation);
    expect((await app.request(`/v1/graphs/routed/conversations/${conversation}`, { headers: as('bob') })).status).toBe(
      404,
    );

    desk.route = 'billing';
    const second = (await (await post(app, EVALS, {}, as('alice'))).json()) as { run: Run };
    expect(second.run.changes).toMatchObject({ previous: run.id, fixed: ['billing'], newlyFailing: ['refund'] });

    const runs = (await (await app.request(EVALS, { headers: as('alice') })).json()) as { runs: Run[] };
    expect(runs.runs.map((r) => r.id)).toEqual([run.id, second.run.id]);
    const bobs = (await (await app.request(EVALS, { headers: as('bob') })).json()) as { runs: Run[] };
    expect(bobs.runs).toEqual([]);
  });

  it('runs only the cases named by tag or id', async () => {
    const { app } = server();
    const response = await post(app, EVALS, { tags: ['billing'] }, as('alice'));
    const { run } = (await response.json()) as { run: Run };
    expect(run.summary.cases.map((c) => c.id)).toEqual(['billing']);
  });

  it('a target without an eval set is a 404 no-eval-set problem, not a 500', async () => {
    const { app } = testServer({ graphs: { routed } });
    const response = await post(app, EVALS, {}, {});
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      type: expect.stringContaining('no-eval-set'),
      detail: expect.stringContaining('graphs/routed has no eval set'),
    });
    expect((await app.request(EVALS)).status).toBe(404);
  });

  it('bad input: a clear 400 naming the field; an unknown target a 404; nothing runs', async () => {
    const { app } = server();
    const tags = await post(app, EVALS, { tags: 'billing' }, as('alice'));
    expect(tags.status).toBe(400);
    expect(await tags.json()).toMatchObject({ field: 'body.tags' });
    const unknown = await post(app, EVALS, { case: ['x'] }, as('alice'));
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { detail: string }).detail).toMatch(/unknown field/);
    expect((await post(app, '/v1/graphs/nope/evals', {}, as('alice'))).status).toBe(404);
    expect((await post(app, EVALS, {}, {})).status).toBe(401);
    const runs = (await (await app.request(EVALS, { headers: as('alice') })).json()) as { runs: Run[] };
    expect(runs.runs).toEqual([]);
  });
});
