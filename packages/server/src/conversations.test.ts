import { describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { createServer } from './index.js';
import { echoModel, memorySessions, post, testServer } from './test-support/server-fixtures.js';

describe('conversations', () => {
  it("GET one: turns, the agent's messages, status", async () => {
    const { app } = testServer();
    await post(app, '/v1/agents/echo/conversations/v1/messages', { message: 'one' });
    await post(app, '/v1/agents/echo/conversations/v1/messages', { message: [{ text: 'two' }] });
    const view = (await (await app.request('/v1/agents/echo/conversations/v1')).json()) as Record<string, unknown>;
    expect(view).toMatchObject({ id: 'v1', kind: 'agents', name: 'echo', status: 'completed', interrupts: [] });
    expect(view['turns']).toMatchObject([
      { turn: 1, status: 'completed', prompt: 'one', text: 'You said: one' },
      { turn: 2, status: 'completed', prompt: 'two', text: 'You said: two' },
    ]);
    expect(view['messages']).toEqual([
      { role: 'user', content: [{ text: 'one' }] },
      { role: 'assistant', content: [{ text: 'You said: one' }] },
      { role: 'user', content: [{ text: 'two' }] },
      { role: 'assistant', content: [{ text: 'You said: two' }] },
    ]);
    // A long message is kept whole in its turn (a page opened again shows what was written).
    const long = `My order 42 ${'was charged twice, '.repeat(20)}please help.`;
    await post(app, '/v1/agents/echo/conversations/v1/messages', { message: long });
    const again = (await (await app.request('/v1/agents/echo/conversations/v1')).json()) as {
      turns: { prompt: string }[];
    };
    expect(again.turns[2]?.prompt).toBe(long);
  });

  it('GET one for a graph: its transitions; for a paused agent: what waits', async () => {
    const { app } = testServer();
    await post(app, '/v1/graphs/desk/conversations/v2/messages', { message: 'x' });
    const graph = (await (await app.request('/v1/graphs/desk/conversations/v2')).json()) as {
      transitions: { kind: string }[];
    };
    expect(graph.transitions.map((t) => t.kind)).toEqual(['start', 'edge', 'complete']);
    await post(app, '/v1/agents/refund/conversations/v3/messages', { message: 'Refund 70 EUR' });
    const paused = (await (await app.request('/v1/agents/refund/conversations/v3')).json()) as Record<string, unknown>;
    expect(paused).toMatchObject({ status: 'interrupted', interrupts: [{ name: 'approval' }] });
  });

  it("lists the principal's conversations of one agent, in pages", async () => {
    const { app } = testServer();
    for (const id of ['p1', 'p2', 'p3'])
      await post(app, `/v1/agents/echo/conversations/${id}/messages`, { message: `hello ${id}` });
    await post(app, '/v1/graphs/desk/conversations/p4/messages', { message: 'elsewhere' });
    const page1 = (await (await app.request('/v1/agents/echo/conversations?limit=2')).json()) as {
      conversations: { id: string; title: string }[];
      next: string;
    };
    expect(page1.conversations.map((c) => c.id)).toEqual(['p1', 'p2']);
    expect(page1.conversations[0]?.title).toBe('hello p1');
    const page2 = (await (
      await app.request(`/v1/agents/echo/conversations?limit=2&cursor=${page1.next}`)
    ).json()) as Record<string, unknown>;
    expect(page2).toEqual({ conversations: [expect.objectContaining({ id: 'p3' })] });
    const bad = await app.request('/v1/agents/echo/conversations?limit=0');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: 'query.limit' });
  });

  it('DELETE removes a conversation and its listing; a running one is refused', async () => {
    const { app, repository } = testServer();
    await post(app, '/v1/agents/echo/conversations/d1/messages', { message: 'bye' });
    expect((await app.request('/v1/agents/echo/conversations/d1', { method: 'DELETE' })).status).toBe(204);
    expect(await repository.readSession('d1')).toBeUndefined();
    expect((await app.request('/v1/agents/echo/conversations/d1')).status).toBe(404);
    expect(await (await app.request('/v1/agents/echo/conversations')).json()).toEqual({ conversations: [] });
    const running = post(app, '/v1/agents/slow/conversations/d2/messages', {
      message: 'a long one to keep it busy for a while',
    });
    await new Promise((r) => setTimeout(r, 20));
    // A running turn is listed with what it was asked (a page opened mid-turn shows the message).
    const busy = (await (await app.request('/v1/agents/slow/conversations/d2')).json()) as { turns: unknown[] };
    expect(busy.turns).toMatchObject([
      { turn: 1, status: 'running', prompt: 'a long one to keep it busy for a while' },
    ]);
    const refused = await app.request('/v1/agents/slow/conversations/d2', { method: 'DELETE' });
    expect(refused.status).toBe(409);
    await running;
    expect((await app.request('/v1/agents/slow/conversations/d2', { method: 'DELETE' })).status).toBe(204);
  });

  it('many new conversations of one principal at once are entered in its index together, not one by one', async () => {
    const { sessions } = memorySessions();
    let indexWriters = 0;
    const app = createServer({
      agents: { echo: ({ sessionManager }) => new Agent({ model: echoModel(), sessionManager }) },
      sessions: (id) => {
        if (id.startsWith('skein-index-')) indexWriters++;
        return sessions(id);
      },
    });
    const ids = Array.from({ length: 30 }, (_, i) => `many-${i}`);
    const results = await Promise.all(
      ids.map((id) => post(app, `/v1/agents/echo/conversations/${id}/messages`, { message: id })),
    );
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    // The first entry alone, the others that arrived meanwhile in one or two more writes.
    expect(indexWriters).toBeLessThanOrEqual(3);
    const reads = indexWriters;
    const list = (await (await app.request('/v1/agents/echo/conversations?limit=100')).json()) as {
      conversations: { id: string }[];
    };
    expect(list.conversations.map((c) => c.id).sort()).toEqual([...ids].sort());
    expect(indexWriters).toBe(reads + 1);
  });
});
