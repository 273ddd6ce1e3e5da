import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@skein/core';
import { serve } from './index.js';
import { testServer } from './test-support/server-fixtures.js';

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
});
