import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SkeinServer } from '@skein/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeskSessions } from '../open-desk.js';
import { scriptedDeskModel } from '../scripted-desk.js';
import { createDeskWeb } from './desk-web.js';
import { customerCookieValue } from './identity.js';
import { storyFromView, type ConversationView } from './client/stored-story.js';
import type { DetailBranch } from './client/story.js';

// What a page opened again reads, in-process (app.fetch) on scripted models and SQLite, for each
// shape: the stored conversation as the customer's cases (the supervisor's decision and note
// included), each case's details by branch, and the supervisor's facts about the order.

const KEY = 'supervisor-key-for-details';
const COOKIE_KEY = 'cookie-key-for-details';
let dir = '';
let app: SkeinServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-details-'));
  app = createDeskWeb({
    shape: 'graph',
    dir,
    sessions: await openDeskSessions({ dir }),
    models: { description: 'scripted', modelFor: (role) => scriptedDeskModel(role) },
    budgetTokens: 100_000,
    keys: { supervisor: KEY, cookie: COOKIE_KEY },
    assets: new Map(),
  });
});

afterAll(async () => {
  await app?.skein.stop({ graceMs: 0 });
  await rm(dir, { recursive: true, force: true });
});

const customer = (name: string) => ({ cookie: `desk-customer=${customerCookieValue(name, COOKIE_KEY)}` });
const supervisor = (name: string) => ({ cookie: `desk-supervisor=${KEY}`, 'x-desk-customer': name });

async function call<T>(
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const response = await app.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, json: (await response.json()) as T };
}

/** A billing message, then a refund over the limit that the supervisor approves with a note. */
async function converse(kind: string, id: string, who: string): Promise<void> {
  const path = `/v1/${kind}/desk/conversations/${id}`;
  await call(`${path}/messages`, customer(who), { message: 'I was charged twice for order 42' });
  const asked = await call<{ interrupts: { id: string }[] }>(`${path}/messages`, customer(who), {
    message: 'Please refund order 108, 60 EUR',
  });
  const waiting = await call<{ waiting: { conversationId: string; order?: unknown; title: string }[] }>(
    '/desk/api/waiting',
    { cookie: `desk-supervisor=${KEY}` },
  );
  // The supervisor decides on the order as the shop knows it, the conversation named by its first message.
  expect(waiting.json.waiting.find((w) => w.conversationId === id)).toMatchObject({
    title: 'I was charged twice for order 42',
    order: {
      id: '108',
      item: 'Standing desk',
      paidEur: 420,
      refundedEur: expect.any(Number),
      buyer: { id: 'c2', name: 'Ben Okafor' },
    },
  });
  const interruptId = asked.json.interrupts[0]?.id ?? '';
  const answered = await call(`${path}/answers`, supervisor(who), {
    answers: { [interruptId]: { approved: true, message: 'Goodwill, as agreed on the phone.' } },
  });
  expect(answered.status).toBe(200);
}

describe('a stored conversation as the customer sees it again', () => {
  it.each([
    ['graphs', ['triage', 'billing', 'notes', 'summary'], ['triage', 'refund', 'notes', 'summary']],
    ['swarms', ['triage', 'billing'], ['triage', 'refund']],
    ['agents', ['desk'], ['desk']],
  ])("%s: the decision and the note, the answers, and each case's details by branch", async (kind, billing, refund) => {
    const id = `details-${kind}`;
    await converse(kind, id, 'aiko');
    const view = await call<ConversationView>(`/v1/${kind}/desk/conversations/${id}`, customer('aiko'));
    const details = await call<{ cases: DetailBranch[][] }>(
      `/desk/api/conversations/${id}/details?kind=${kind}`,
      customer('aiko'),
    );
    expect(details.status).toBe(200);
    const cases = storyFromView(view.json, details.json.cases);
    expect(cases.map((c) => c.message)).toEqual([
      'I was charged twice for order 42',
      'Please refund order 108, 60 EUR',
    ]);
    // (The first shape reversed the duplicate: the shop's data is shared, so later ones find one charge.)
    expect(cases[0]?.answer).toMatch(
      /^I reversed the duplicate charge on invoice INV-42|^Invoice INV-42 shows one charge/,
    );
    expect(cases[1]?.decisions).toEqual([
      expect.objectContaining({ approved: true, text: 'Approved by our team: Goodwill, as agreed on the phone.' }),
    ]);
    expect(cases[1]?.answer).toMatch(/^I refunded 60 EUR for order 108/);
    expect(cases[0]?.details.map((b) => b.who)).toEqual(billing);
    expect(cases[1]?.details.map((b) => b.who)).toEqual(refund);
    const lines = cases.flatMap((c) => c.details.flatMap((b) => b.lines));
    if (kind !== 'agents')
      expect(lines).toEqual(expect.arrayContaining(['looked up order 42', 'refunded 60 EUR for order 108']));
    else expect(lines).toEqual(expect.arrayContaining(['asked the billing team', 'asked the refund team']));
    // No machinery in the customer's words, and no answer shown again among the details.
    expect(JSON.stringify(cases)).not.toMatch(/ROUTE:|issue_refund|lookup_order|the user/);
    for (const c of cases) expect(c.details.flatMap((b) => b.lines)).not.toContain(c.answer);
  });

  it("another customer's conversation has no details for them (the server's answer, 404); a bad kind is 400", async () => {
    await converse('graphs', 'details-private', 'carol');
    expect((await call('/desk/api/conversations/details-private/details?kind=graphs', customer('dave'))).status).toBe(
      404,
    );
    expect((await call('/desk/api/conversations/details-private/details?kind=graphs', {})).status).toBe(401);
    expect((await call('/desk/api/conversations/details-private/details?kind=nodes', customer('carol'))).status).toBe(
      400,
    );
  });
});
