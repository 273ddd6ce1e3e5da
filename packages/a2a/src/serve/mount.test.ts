/** The A2A app mounted on another Hono app (as `@skein/server` will mount it), with its authorize hook and the parent's middleware. */
import type { AddressInfo } from 'node:net';
import { ClientFactory } from '@a2a-js/sdk/client';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createA2AApp, RemoteAgent, RemoteAgentError } from '../index.js';
import { slowAgent } from '../test-support/test-agents.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

describe('createA2AApp mounted under a prefix', () => {
  it('serves the card with the prefixed URLs, honours authorize and the parent middleware', async () => {
    const a2a = createA2AApp({
      agent: (sm) => slowAgent(sm, 0, 'mounted answer'),
      authorize: (request) => (request.headers.get('authorization') === 'Bearer alice' ? { id: 'alice' } : undefined),
    });
    const parent = new Hono();
    const seen: string[] = [];
    parent.use('*', async (c, next) => {
      seen.push(`${c.req.method} ${new URL(c.req.url).pathname}`);
      await next();
    });
    parent.route('/a2a/desk', a2a.app);
    await a2a.start();
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: parent.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    closers.push(async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await a2a.close();
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a2a/desk`;

    const client = await new ClientFactory().createFromUrl(`${base}/`);
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces[0]?.url).toBe(`${base}/a2a/jsonrpc`);

    const remote = new RemoteAgent({ name: 'desk', url: base, headers: { authorization: 'Bearer alice' } });
    expect((await remote.send('hello')).text).toBe('mounted answer');
    expect(seen).toContain('POST /a2a/desk/a2a/jsonrpc');

    const stranger = new RemoteAgent({ name: 'desk', url: base, retryStrategy: null });
    const refused = (await stranger.send('hello').catch((e: unknown) => e)) as RemoteAgentError;
    expect(RemoteAgentError.is(refused)).toBe(true);
    expect(refused.failure).toBe('protocol_error');
    expect(refused.message).toMatch(/Unauthorized: this agent does not accept the credentials/);
  });
});
