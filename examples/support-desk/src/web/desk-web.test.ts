import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventType, HttpAgent, type BaseEvent } from '@ag-ui/client';
import type { SkeinServer } from '@skein/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundsMade } from '../test-support/desk-run.js';
import { openDeskSessions } from '../open-desk.js';
import { scriptedDeskModel } from '../scripted-desk.js';
import { createDeskWeb } from './desk-web.js';
import { customerCookieValue } from './identity.js';

// The web desk's routes in-process (app.fetch), on scripted models and SQLite: the three shapes under
// the name `desk`, who may do what (customers, the supervisor), and the pages' own routes.

const KEY = 'supervisor-key-for-tests';
const COOKIE_KEY = 'cookie-key-for-tests';
let dir = '';
let app: SkeinServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-web-routes-'));
  app = createDeskWeb({
    shape: 'graph',
    dir,
    sessions: await openDeskSessions({ dir }),
    models: { description: 'scripted', modelFor: (role) => scriptedDeskModel(role) },
    budgetTokens: 10_000,
    keys: { supervisor: KEY, cookie: COOKIE_KEY },
    assets: new Map([['desk.css', { body: new TextEncoder().encode('body{}'), type: 'text/css; charset=utf-8' }]]),
  });
});

afterAll(async () => {
  await app?.skein.stop({ graceMs: 0 });
  await rm(dir, { recursive: true, force: true });
});

const asCustomer = (name: string) => ({ cookie: `desk-customer=${customerCookieValue(name, COOKIE_KEY)}` });
const asSupervisor = (customer: string) => ({ cookie: `desk-supervisor=${KEY}`, 'x-desk-customer': customer });

function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const headers = { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers };
  return app.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }),
  );
}

const message = (kind: string, id: string, text: string, customer: string) =>
  call(`/v1/${kind}/desk/conversations/${id}/messages`, { headers: asCustomer(customer), body: { message: text } });

describe('the web desk routes', () => {
  it.each(['graphs', 'swarms', 'agents'])('serves the desk as %s under the name desk', async (kind) => {
    const response = await message(kind, `shape-${kind}`, 'What are your opening hours?', 'aiko');
    expect(response.status).toBe(200);
    const result = (await response.json()) as { status: string; text: string };
    expect(result).toMatchObject({ status: 'completed' });
    expect(result.text).toMatch(/I can help with charges, invoices and refunds/);
  });

  it('a refund over the limit waits; the customer may not answer it (answers or the AI SDK approval parts), the supervisor may', async () => {
    const id = 'refund-1';
    const asked = (await (await message('graphs', id, 'Please refund order 108, 60 EUR', 'ben')).json()) as {
      status: string;
      interrupts: { id: string }[];
    };
    expect(asked.status).toBe('interrupted');
    const interruptId = asked.interrupts[0]?.id ?? '';
    const answers = { answers: { [interruptId]: { approved: true } } };
    const path = `/v1/graphs/desk/conversations/${id}`;
    const byCustomer = await call(`${path}/answers`, { headers: asCustomer('ben'), body: answers });
    expect(byCustomer.status).toBe(403);
    const approvalPart = {
      type: 'dynamic-tool',
      toolName: 'issue_refund',
      toolCallId: 'tooluse_2',
      state: 'approval-responded',
      input: {},
      approval: { id: interruptId, approved: true },
    };
    const byChat = await call(`${path}/ui`, {
      headers: asCustomer('ben'),
      body: { messages: [{ id: 'turn-1', role: 'assistant', parts: [approvalPart] }] },
    });
    expect(byChat.status).toBe(403);
    expect(((await byChat.json()) as { detail: string }).detail).toMatch(/may not give/);
    expect(await refundsMade(dir)).toEqual([]);

    const waiting = (await (
      await call('/desk/api/waiting', { headers: { cookie: `desk-supervisor=${KEY}` } })
    ).json()) as {
      waiting: { conversationId: string; customer: string; tool: string; interruptId: string }[];
    };
    expect(waiting.waiting).toEqual([
      expect.objectContaining({ conversationId: id, customer: 'ben', tool: 'issue_refund', interruptId }),
    ]);
    const bySupervisor = await call(`${path}/answers`, { headers: asSupervisor('ben'), body: answers });
    expect(bySupervisor.status).toBe(200);
    expect(await bySupervisor.json()).toMatchObject({
      status: 'completed',
      text: expect.stringMatching(/^I refunded 60 EUR/),
    });
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
    // The customer's page re-joins the turn the answer started, even once it ended (what the notice names).
    const turn = bySupervisor.headers.get('x-skein-turn');
    expect(turn).toBe('2');
    const replay = await call(`${path}/stream?format=ui&lastEventId=${turn}.0.0`, { headers: asCustomer('ben') });
    expect(replay.status).toBe(200);
    const chunks = await replay.text();
    expect(chunks).toContain('"type":"tool-output-available"');
    expect(chunks).toContain('"data":{"turn":2,"status":"completed"}');
  });

  it('AG-UI (POST /v1/graphs/desk/agui, HttpAgent): the customer sees the run and its approval, and may not answer it', async () => {
    const agent = (headers: Record<string, string>) => {
      const client = new HttpAgent({
        url: 'http://127.0.0.1/v1/graphs/desk/agui',
        threadId: 'agui-1',
        headers,
        fetch: (url, init) => Promise.resolve(app.fetch(new Request(url, init))),
      });
      const events: BaseEvent[] = [];
      client.subscribe({ onEvent: ({ event }) => void events.push(event) });
      return { client, events };
    };
    const paid = (await refundsMade(dir)).length;
    const ben = agent(asCustomer('ben'));
    ben.client.addMessage({ id: 'u1', role: 'user', content: 'Please refund order 108, 60 EUR' });
    await ben.client.runAgent({ runId: 'agui-run-1' });
    expect(ben.events[0]?.type).toBe(EventType.RUN_STARTED);
    expect(ben.events.some((e) => e.type === EventType.CUSTOM && e['name'] === 'skein.approval')).toBe(true);
    const [pending] = ben.client.pendingInterrupts;
    expect(pending).toMatchObject({ reason: 'approval' });
    const resume = [{ interruptId: pending?.id ?? '', status: 'resolved' as const, payload: { approved: true } }];
    await expect(ben.client.runAgent({ runId: 'agui-run-2', resume })).rejects.toMatchObject({ status: 403 });
    expect(await refundsMade(dir)).toHaveLength(paid);
  });

  it("another customer's conversation id answers as a free id does, in every route the pages use", async () => {
    await message('graphs', 'carol-1', 'What are your opening hours?', 'carol');
    for (const id of ['carol-1', 'nobody-1']) {
      for (const path of [
        `/v1/graphs/desk/conversations/${id}`,
        `/v1/graphs/desk/conversations/${id}/stream?format=ui`,
      ])
        expect([path, (await call(path, { headers: asCustomer('dave') })).status]).toEqual([path, 404]);
      const budget = await call(`/desk/api/conversations/${id}/budget`, { headers: asCustomer('dave') });
      expect(((await budget.json()) as { spent: { totalTokens: number } }).spent.totalTokens).toBe(0);
    }
    const listed = (await (await call('/v1/graphs/desk/conversations', { headers: asCustomer('dave') })).json()) as {
      conversations: unknown[];
    };
    expect(listed.conversations).toEqual([]);
    const budget = (await (
      await call('/desk/api/conversations/carol-1/budget', { headers: asCustomer('carol') })
    ).json()) as {
      spent: { totalTokens: number };
    };
    expect(budget.spent.totalTokens).toBeGreaterThan(0);
  });

  it('the supervisor reads and answers, never writes a message or deletes; without the key nothing', async () => {
    const path = '/v1/graphs/desk/conversations/carol-1';
    const write = await call(`${path}/messages`, { headers: asSupervisor('carol'), body: { message: 'hi' } });
    expect(write.status).toBe(403);
    expect((await call(path, { method: 'DELETE', headers: asSupervisor('carol') })).status).toBe(403);
    expect((await call(path, { headers: asSupervisor('carol') })).status).toBe(200);
    const forged = await call(path, { headers: { ...asCustomer('dave'), 'x-desk-customer': 'carol' } });
    expect(forged.status).toBe(403);
    // A customer cookie nobody signed is no sign-in.
    for (const value of ['carol', `carol.${'A'.repeat(43)}`, customerCookieValue('carol', 'another-key')])
      expect((await call(path, { headers: { cookie: `desk-customer=${value}` } })).status).toBe(401);
    expect((await call('/desk/api/waiting', { headers: asCustomer('carol') })).status).toBe(401);
    expect((await call('/v1/graphs/desk/conversations/x1/messages', { body: { message: 'hi' } })).status).toBe(401);
    expect((await call('/supervisor?key=wrong')).status).toBe(401);
    const signedIn = await call(`/supervisor?key=${KEY}`);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('set-cookie')).toMatch(/^desk-supervisor=.*HttpOnly/);
    const inspect = `/inspect/${app.skein.sessionIdOf('customer:carol', 'carol-1')}`;
    const page = await call(inspect, { headers: { cookie: `desk-supervisor=${KEY}` } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await call(inspect, { headers: asCustomer('carol') })).status).toBe(401);
  });

  it('pages: sign-in (a bad id is refused with the reason), the chat, and nothing from another origin', async () => {
    const form = (customer: string) =>
      app.fetch(
        new Request('http://127.0.0.1/sign-in', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ customer }),
        }),
      );
    const bad = await form('no spaces please');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Use 1 to 64 letters, digits');
    const good = await form('erin');
    expect(good.status).toBe(303);
    expect(good.headers.get('set-cookie')).toMatch(/^desk-customer=erin\.[\w-]{43};/);
    const page = await call('/', { headers: asCustomer('erin') });
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain('data-customer="erin"');
    expect(html).toMatch(/<label for="message">/);
    expect(html).not.toMatch(/https?:\/\//);
    expect(await (await call('/')).text()).toContain('<label for="customer">Customer id</label>');
  });
});
