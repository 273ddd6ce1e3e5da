import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundsMade } from '../desk-run.test-helpers.js';
import { axeViolations, launchChromium, watchPage, type PageWatch } from './testing/browser.js';
import { startDeskWeb, type DeskWebProcess } from './testing/desk-web-process.js';
import {
  answer,
  logLines,
  openSupervisor,
  send,
  signIn,
  until,
  waitForLine,
  waitForStatus,
} from './testing/desk-pages.js';

// `npm run desk:web` in a child process (graph shape, scripted models, SQLite in a temp dir; tools
// slowed by 150 ms as a remote backend would be, so turns are still running when the pages look),
// driven in Debian's headless chromium through playwright-core. The tests share one desk and run in
// order: the last one SIGKILLs it and starts it again.

let dir = '';
let desk: DeskWebProcess;
let browser: Browser;
const ENV = { DESK_TOOL_DELAY_MS: '150' };
const watches: PageWatch[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-web-'));
  [desk, browser] = await Promise.all([startDeskWeb(['--dir', dir], ENV), launchChromium()]);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await desk?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function customer(
  name: string,
  onSignInPage?: (page: Page) => Promise<void>,
): Promise<{ page: Page; watch: PageWatch }> {
  const page = await signIn(browser, desk.url, name, onSignInPage);
  const watch = watchPage(page, desk.url);
  watches.push(watch);
  return { page, watch };
}

const texts = async (page: Page, kind: string): Promise<string[]> =>
  (await logLines(page)).filter((l) => l.kind === kind).map((l) => l.text);

/** axe-core's serious and critical findings. */
async function seriousViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

describe('the web desk in a real browser', () => {
  it('answers a billing question: the agents in the order they spoke, their tool calls and handoffs, the budget', async () => {
    let signInPage: string[] = ['not audited'];
    const { page, watch } = await customer('aiko', async (p) => {
      signInPage = await seriousViolations(p);
    });
    expect(signInPage).toEqual([]);
    await send(page, 'I was charged twice for order 42');
    await waitForStatus(page, 'The desk is answering');
    await waitForLine(page, 'Case closed.');
    const speakers = await texts(page, 'speaker');
    expect(speakers[0]).toBe('triage');
    expect(speakers.at(-1)).toBe('summary');
    expect([...speakers].sort()).toEqual(['billing', 'notes', 'summary', 'triage']);
    expect(await texts(page, 'handoff')).toEqual(['triage sent the case to billing', 'triage sent the case to notes']);
    expect(await texts(page, 'tool')).toEqual([
      'Done (billing): looking up order 42',
      'Done (billing): reversing the duplicate charge on INV-42',
    ]);
    expect((await texts(page, 'text')).at(-1)).toBe(
      'I reversed the duplicate charge on invoice INV-42; you are now charged 80 EUR once. Case closed.',
    );
    await waitForStatus(page, '');
    await until(page, `/Budget: [1-9][0-9]* of 200000 tokens/.test(document.getElementById('budget').textContent)`);
    // Every input has a label, and axe finds nothing serious with a conversation on the page.
    expect(await page.$$eval('input', (inputs) => inputs.filter((i) => i.labels?.length === 0).length)).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watch.errors).toEqual([]);
    expect(watch.offOrigin).toEqual([]);
  });

  it('a refund over the limit waits for a person: approved on the supervisor page, then streamed; a denied one pays nothing', async () => {
    const { page, watch } = await customer('ben');
    await send(page, 'Please refund order 108, 60 EUR');
    await waitForStatus(page, 'Waiting for a person to approve');
    await waitForLine(page, 'Waiting for a person to approve (refund): a refund of 60 EUR for order 108');
    expect(await page.isDisabled('#send')).toBe(true);
    expect(await refundsMade(dir)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    const supervisor = await openSupervisor(browser, desk.supervisorUrl);
    const supervisorWatch = watchPage(supervisor, desk.url);
    const item = supervisor.locator('#waiting .item', { hasText: 'A refund of 60 EUR for order 108' });
    await item.waitFor();
    expect(await item.textContent()).toContain('Customer ben, asked by refund');
    expect(await seriousViolations(supervisor)).toEqual([]);
    await answer(supervisor, 'A refund of 60 EUR for order 108', true);

    // The customer's page goes on by itself, streaming the rest of the turn (only the live stream shows tool lines).
    await waitForLine(page, 'Done (refund): a refund of 60 EUR for order 108');
    await waitForLine(page, 'I refunded 60 EUR for order 108; it reaches your card in 3 to 5 days. Case closed.');
    expect(await texts(page, 'tool')).toContain('A person answered (refund): a refund of 60 EUR for order 108');
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);

    // A page opened again while a refund waits shows it from the store, and goes on when it is answered.
    await send(page, 'Please refund order 108, 100 EUR');
    await waitForStatus(page, 'Waiting for a person to approve');
    await page.reload();
    await waitForStatus(page, 'Waiting for a person to approve');
    await waitForLine(page, 'Waiting for a person to approve: a refund of 100 EUR for order 108');
    await answer(supervisor, 'A refund of 100 EUR for order 108', false, 'Please send the desk back first.');
    await waitForLine(page, 'A person answered: a refund of 100 EUR for order 108');
    await waitForLine(page, 'The refund was not made: The user denied issue_refund: Please send the desk back first.');
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
    expect(await supervisor.textContent('#waiting-status')).toContain(
      'Denied: A refund of 100 EUR for order 108 for ben',
    );

    // The conversation's inspector page, linked from the supervisor's list.
    const row = supervisor.locator('#conversations tbody tr', { hasText: 'ben' });
    await Promise.all([supervisor.waitForURL(/\/inspect\//), row.locator('a').click()]);
    expect(await supervisor.textContent('body')).toContain('refund');
    expect([...watch.errors, ...supervisorWatch.errors]).toEqual([]);
  });

  it('two customers at once in two browser contexts: each sees only their own conversation', async () => {
    const [carol, dave] = await Promise.all([customer('carol'), customer('dave')]);
    await Promise.all([
      send(carol.page, 'I was charged twice for order 42'),
      send(dave.page, 'What are your opening hours?'),
    ]);
    await Promise.all([
      waitForLine(carol.page, 'Invoice INV-42 shows one charge of 80 EUR'),
      waitForLine(dave.page, 'I can help with charges, invoices and refunds'),
    ]);
    const carolText = (await logLines(carol.page)).map((l) => l.text).join('\n');
    const daveText = (await logLines(dave.page)).map((l) => l.text).join('\n');
    expect(carolText).not.toContain('opening hours');
    expect(daveText).not.toContain('order 42');
    await until(carol.page, `document.querySelectorAll('#conversations li').length > 0`);
    expect(await carol.page.$$eval('#conversations li', (items) => items.map((i) => i.textContent))).toEqual([
      'I was charged twice for order 42',
    ]);
    // Dave's conversation is not Carol's to read, by id or by address.
    const daveId = new URL(dave.page.url()).searchParams.get('c') ?? '';
    const status = await carol.page.evaluate(
      async (id) => (await fetch(`/v1/graphs/desk/conversations/${encodeURIComponent(id)}`)).status,
      daveId,
    );
    expect(status).toBe(404);
    await carol.page.goto(`${desk.url}/?c=${encodeURIComponent(daveId)}`);
    await carol.page.waitForSelector('#conversations li');
    expect(await logLines(carol.page)).toEqual([]);
    expect([...carol.watch.errors, ...dave.watch.errors]).toEqual([]);
  });

  it('the server SIGKILLed in the middle of a turn and started again: the page reconnects, the turn completes once, the refund is paid once', async () => {
    // Order 17 is Erin's: a refund is only made for an order of the signed-in customer.
    const { page, watch } = await customer('erin');
    await send(page, 'Please refund order 17');
    // The refund tool waits 150 ms after paying: the kill lands between the payment and its result.
    await expect
      .poll(() => refundsMade(dir), { interval: 10, timeout: 30_000 })
      .toContainEqual({
        orderId: '17',
        amountEur: 12,
      });
    await desk.stop('SIGKILL');
    await waitForStatus(page, 'Connection lost; reconnecting');
    desk = await startDeskWeb(['--dir', dir, '--port', String(desk.port)], ENV);
    await waitForLine(page, 'I refunded 12 EUR for order 17; it reaches your card in 3 to 5 days. Case closed.');
    await waitForStatus(page, '');
    const lines = (await logLines(page)).map((l) => l.text);
    expect(lines).toContain('The desk restarted and went on from where it was.');
    expect(lines.filter((l) => l.endsWith('Case closed.'))).toHaveLength(1);
    expect(lines.filter((l) => l === 'Done (refund): a refund of 12 EUR for order 17')).toHaveLength(1);
    expect((await refundsMade(dir)).filter((r) => r.orderId === '17')).toEqual([{ orderId: '17', amountEur: 12 }]);
    // The connection errors of the restart are the browser's network log; the page itself threw nothing.
    expect(watch.errors).toEqual([]);
    expect(watches.flatMap((w) => w.offOrigin)).toEqual([]);
  });
});
