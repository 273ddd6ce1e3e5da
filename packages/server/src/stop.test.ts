import { describe, expect, it } from 'vitest';
import { Agent, RepositorySessionManager } from '@skein/core';
import { createServer } from './index.js';
import { memorySessions, post, readSse, trickleModel } from './test-support/server-fixtures.js';

const LONG = 'a long message so that the slow agent is still streaming when the server stops';

function slowServer(sessions: (id: string) => RepositorySessionManager) {
  return createServer({
    agents: { slow: ({ sessionManager }) => new Agent({ name: 'slow', model: trickleModel(15), sessionManager }) },
    sessions,
    onError: () => undefined,
  });
}

describe('graceful stop', () => {
  it('tells attached streams, stops the running turn at a safe point as "stopped", refuses new turns; the next server resumes it', async () => {
    const { repository } = memorySessions();
    const sessions = (id: string) => new RepositorySessionManager({ sessionId: id, repository });
    const app = slowServer(sessions);
    const streaming = post(
      app,
      '/v1/agents/slow/conversations/s1/messages',
      { message: LONG },
      { accept: 'text/event-stream' },
    );
    await new Promise((r) => setTimeout(r, 60));
    expect(app.skein.runningTurns).toBe(1);
    const stopped = app.skein.stop({ graceMs: 30 });
    const refused = await post(app, '/v1/agents/slow/conversations/s2/messages', { message: 'x' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    await stopped;
    expect(app.skein.runningTurns).toBe(0);
    const events = await readSse(await streaming);
    const types = events.map((e) => e.event);
    expect(types).toContain('serverStopping');
    expect(types.indexOf('serverStopping')).toBeLessThan(types.indexOf('turnEnd'));
    expect(events.at(-1)?.data).toMatchObject({ result: { status: 'stopped' } });

    const next = slowServer(sessions);
    const view = (await (await next.request('/v1/agents/slow/conversations/s1')).json()) as { status: string };
    expect(view.status).toBe('stopped');
    const resumed = await readSse(
      await next.request('/v1/agents/slow/conversations/s1/stream', {
        headers: { 'last-event-id': events.at(-1)?.id as string },
      }),
    );
    expect(resumed[0]?.event).toBe('resumed');
    expect(resumed.at(-1)?.data).toMatchObject({ result: { status: 'completed', turn: 1, text: `You said: ${LONG}` } });
  });

  it('turns that end within the grace time end normally', async () => {
    const { sessions } = memorySessions();
    const app = slowServer(sessions as (id: string) => RepositorySessionManager);
    const res = post(app, '/v1/agents/slow/conversations/s3/messages', { message: 'short' });
    await new Promise((r) => setTimeout(r, 10));
    await app.skein.stop({ graceMs: 5_000 });
    expect(await (await res).json()).toMatchObject({ status: 'completed', text: 'You said: short' });
  });
});
