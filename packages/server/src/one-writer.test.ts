import { describe, expect, it } from 'vitest';
import { post, readSse, testServer } from './test-support/server-fixtures.js';

const LONG = 'a message long enough to keep the slow agent streaming for a while';

describe('one writer per conversation', () => {
  it('a second message while a turn runs gets 409 naming the running turn', async () => {
    const { app } = testServer();
    const first = post(app, '/v1/agents/slow/conversations/w1/messages', { message: LONG });
    await new Promise((r) => setTimeout(r, 20));
    const second = await post(app, '/v1/agents/slow/conversations/w1/messages', { message: 'me too' });
    expect(second.status).toBe(409);
    const problem = (await second.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({
      status: 409,
      field: 'path.id',
      running: { turn: 1, kind: 'agents', name: 'slow' },
    });
    expect(String(problem['detail'])).toContain('"wait": true');
    expect((await first).status).toBe(200);
  });

  it('two messages in the same tick: exactly one runs', async () => {
    const { app } = testServer();
    const [a, b] = await Promise.all([
      post(app, '/v1/agents/echo/conversations/w2/messages', { message: 'a' }),
      post(app, '/v1/agents/echo/conversations/w2/messages', { message: 'b' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
  });

  it('with "wait": true the second message waits for the running turn, then runs', async () => {
    const { app } = testServer();
    const first = post(app, '/v1/agents/slow/conversations/w3/messages', { message: LONG });
    await new Promise((r) => setTimeout(r, 20));
    const second = await post(app, '/v1/agents/slow/conversations/w3/messages', { message: 'after you', wait: true });
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ turn: 2, text: 'You said: after you' });
    expect(await (await first).json()).toMatchObject({ turn: 1, status: 'completed' });
  });

  it('cancel stops the running turn; the agent takes the next message', async () => {
    const { app } = testServer();
    const stream = post(
      app,
      '/v1/agents/slow/conversations/w4/messages',
      { message: LONG },
      { accept: 'text/event-stream' },
    );
    await new Promise((r) => setTimeout(r, 40));
    const cancel = await post(app, '/v1/agents/slow/conversations/w4/cancel', {});
    expect(cancel.status).toBe(202);
    expect(await cancel.json()).toEqual({ conversationId: 'w4', turn: 1, cancelled: true });
    const events = await readSse(await stream);
    expect(events.at(-1)?.data).toMatchObject({ result: { status: 'cancelled', stopReason: 'cancelled' } });
    const none = await post(app, '/v1/agents/slow/conversations/w4/cancel', {});
    expect(none.status).toBe(409);
    const next = await post(app, '/v1/agents/echo/conversations/w4/messages', { message: 'x' });
    expect(next.status).toBe(409);
    expect(await next.json()).toMatchObject({ type: 'https://skein.dev/problems#wrong-target' });
    const again = await post(app, '/v1/agents/slow/conversations/w4/messages', { message: 'again' });
    expect(await again.json()).toMatchObject({ turn: 2, status: 'completed', text: 'You said: again' });
  });
});

describe('a cancelled graph turn', () => {
  it('is unfinished: a new message gets 409; re-joining resumes it without re-running the finished node', async () => {
    const { app } = testServer();
    const stream = post(
      app,
      '/v1/graphs/slowdesk/conversations/gc1/messages',
      { message: LONG },
      { accept: 'text/event-stream' },
    );
    await new Promise((r) => setTimeout(r, 80));
    expect((await post(app, '/v1/graphs/slowdesk/conversations/gc1/cancel', {})).status).toBe(202);
    const first = await readSse(await stream);
    expect(first.at(-1)?.data).toMatchObject({ result: { status: 'cancelled' } });
    const blocked = await post(app, '/v1/graphs/slowdesk/conversations/gc1/messages', { message: 'new' });
    expect(blocked.status).toBe(409);
    expect(await blocked.json()).toMatchObject({
      type: 'https://skein.dev/problems#turn-unfinished',
      turnStatus: 'cancelled',
    });
    const resumed = await readSse(await app.request('/v1/graphs/slowdesk/conversations/gc1/stream'));
    expect(resumed.filter((e) => e.event === 'nodeStart').map((e) => (e.data as { nodeId: string }).nodeId)).toEqual([
      'answer',
    ]);
    expect(resumed.at(-1)?.data).toMatchObject({ result: { status: 'completed', turn: 1 } });
    const next = await post(app, '/v1/graphs/slowdesk/conversations/gc1/messages', { message: 'now' });
    expect(await next.json()).toMatchObject({ turn: 2, status: 'completed' });
  });
});
