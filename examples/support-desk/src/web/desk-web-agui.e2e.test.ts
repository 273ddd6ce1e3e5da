import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventType, HttpAgent, type BaseEvent } from '@ag-ui/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeskWeb, type DeskWebProcess } from './test-support/desk-web-process.js';

// `npm run desk:web` (a child process, scripted models, SQLite in a temp dir) serves the AG-UI route:
// @ag-ui/client's HttpAgent, signed in as a customer, runs the desk's graph over real HTTP.

let dir = '';
let desk: DeskWebProcess;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-agui-'));
  desk = await startDeskWeb(['--dir', dir]);
}, 600_000);

afterAll(async () => {
  await desk?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function cookieOf(customer: string): Promise<string> {
  const response = await fetch(`${desk.url}/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ customer }).toString(),
    redirect: 'manual',
  });
  const set = response.headers.get('set-cookie');
  if (response.status !== 303 || !set) throw new Error(`sign-in of ${customer} failed: ${response.status}`);
  return set.split(';')[0] as string;
}

describe('npm run desk:web and AG-UI', () => {
  it('POST /v1/graphs/desk/agui answers a customer with AG-UI events', async () => {
    const agent = new HttpAgent({
      url: `${desk.url}/v1/graphs/desk/agui`,
      threadId: 'agui-e2e-1',
      headers: { cookie: await cookieOf('aiko') },
    });
    const events: BaseEvent[] = [];
    agent.subscribe({ onEvent: ({ event }) => void events.push(event) });
    agent.addMessage({ id: 'u1', role: 'user', content: 'What are your opening hours?' });
    await agent.runAgent({ runId: 'agui-e2e-run-1' });
    expect(events[0]?.type).toBe(EventType.RUN_STARTED);
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
    expect(events.some((e) => e.type === EventType.STEP_STARTED)).toBe(true);
    const reply = agent.messages.filter((m) => m.role === 'assistant').at(-1);
    expect(reply?.content).toMatch(/I can help with charges, invoices and refunds/);
  });
});
