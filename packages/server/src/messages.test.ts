import { describe, expect, it } from 'vitest';
import { post, readSse, testServer } from './test-support/server-fixtures.js';

describe('POST .../messages', () => {
  it('answers with the turn result as JSON', async () => {
    const { app } = testServer();
    const res = await post(app, '/v1/agents/echo/conversations/c1/messages', { message: 'hello' });
    expect(res.status).toBe(200);
    const result = (await res.json()) as Record<string, unknown>;
    expect(result).toMatchObject({
      conversationId: 'c1',
      turn: 1,
      status: 'completed',
      text: 'You said: hello',
      interrupts: [],
    });
    const second = await post(app, '/v1/agents/echo/conversations/c1/messages', { message: 'again' });
    expect(await second.json()).toMatchObject({ turn: 2, text: 'You said: again' });
  });

  it('streams the run as SSE with an id on every event', async () => {
    const { app } = testServer();
    const res = await post(
      app,
      '/v1/agents/echo/conversations/c2/messages',
      { message: 'stream me' },
      { accept: 'text/event-stream' },
    );
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSse(res);
    expect(events[0]).toMatchObject({ id: '1.0.0', event: 'turnStart' });
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => `1.0.${i}`));
    const text = events
      .filter((e) => e.event === 'textDelta')
      .map((e) => (e.data as { data: string }).data)
      .join('');
    expect(text).toBe('You said: stream me');
    expect(events.at(-1)).toMatchObject({ event: 'turnEnd', data: { result: { status: 'completed' } } });
  });

  it('runs a graph and says which node speaks', async () => {
    const { app } = testServer();
    const res = await post(
      app,
      '/v1/graphs/desk/conversations/g1/messages',
      { message: 'route me' },
      { accept: 'text/event-stream' },
    );
    const events = await readSse(res);
    const starts = events.filter((e) => e.event === 'nodeStart').map((e) => (e.data as { nodeId: string }).nodeId);
    expect(starts).toEqual(['triage', 'answer']);
    const deltaPaths = new Set(
      events.filter((e) => e.event === 'textDelta').map((e) => (e.data as { path: string[] }).path.join('/')),
    );
    expect(deltaPaths).toEqual(new Set(['triage', 'answer']));
    expect(events.at(-1)?.data).toMatchObject({ result: { status: 'completed', turn: 1 } });
  });
});
