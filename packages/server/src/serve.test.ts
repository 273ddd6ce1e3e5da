import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Agent, ConfigurationError } from '@skein/core';
import { createServer, serve } from './index.js';
import { echoModel, memorySessions, readSse, testServer } from './test-support/server-fixtures.js';

/** Counts the writes (syscalls) the server makes on each socket it accepts. */
function countWrites(server: { on(event: 'connection', fn: (socket: Socket) => void): unknown }): () => number {
  let writes = 0;
  server.on('connection', (socket) => {
    const s = socket as Socket & { _write: (...a: unknown[]) => unknown; _writev?: (...a: unknown[]) => unknown };
    const write = s._write.bind(s);
    s._write = (...a) => {
      writes++;
      return write(...a);
    };
    const writev = s._writev?.bind(s);
    if (writev)
      s._writev = (...a) => {
        writes++;
        return writev(...a);
      };
  });
  return () => writes;
}

describe('serve', () => {
  it('without authorize: binds 127.0.0.1 and says so; refuses a public address', async () => {
    const { app } = testServer();
    const lines: string[] = [];
    const running = await serve(app, { port: 0, handleSignals: false, log: (l) => lines.push(l) });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines[0]).toContain('no authorize: loopback only');
      const res = await fetch(`${running.url}/v1/agents/echo/conversations/n1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'over a socket' }),
      });
      expect(await res.json()).toMatchObject({ text: 'You said: over a socket' });
    } finally {
      await running.stop();
    }
    await expect(serve(app, { port: 0, hostname: '0.0.0.0', handleSignals: false, log: null })).rejects.toThrow(
      ConfigurationError,
    );
  });

  it('with authorize: may bind every address', async () => {
    const { app } = testServer({ authorize: () => 'someone' });
    const running = await serve(app, { port: 0, hostname: '0.0.0.0', handleSignals: false, log: null });
    try {
      expect(running.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      expect((await fetch(`http://127.0.0.1:${running.port}/openapi.json`)).status).toBe(200);
    } finally {
      await running.stop();
    }
  });

  it('streams a turn in one write per burst: the headers leave with the first events, the end with the last', async () => {
    const { sessions } = memorySessions();
    const app = createServer({
      agents: { echo: ({ sessionManager }) => new Agent({ name: 'echo', model: echoModel(40), sessionManager }) },
      sessions,
    });
    const running = await serve(app, { port: 0, handleSignals: false, log: null });
    const writes = countWrites(running.server);
    try {
      const res = await fetch(`${running.url}/v1/agents/echo/conversations/w1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ message: 'one write per burst' }),
      });
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const events = await readSse(res);
      const names = events.map((e) => e.event);
      expect([...names.slice(0, 3), ...names.slice(-2)]).toEqual([
        'turnStart',
        'messageAdded',
        'textDelta',
        'messageAdded',
        'turnEnd',
      ]);
      expect(events.map((e) => e.id)).toEqual(events.map((_, i) => `1.0.${i}`));
      // The status line, headers, turnStart and the user's message; 40 ms later the answer, turnEnd and the end.
      expect(writes()).toBe(2);
    } finally {
      await running.stop();
    }
  });
});
