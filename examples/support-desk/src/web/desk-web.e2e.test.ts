import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundsMade } from '../test-support/desk-run.js';
import { axeViolations, launchChromium, watchPage, type PageWatch } from './test-support/browser.js';
import { startDeskWeb, type DeskWebProcess } from './test-support/desk-web-process.js';
import {
  answer,
  detailLines,
  logLines,
  openSupervisor,
  send,
  settled,
  signIn,
  until,
  waitForLine,
  waitForStatus,
  widths,
  WIDTHS,
} from './test-support/desk-pages.js';

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

/** axe-core's serious and critical findings, at a phone's and a laptop's width. */
async function seriousViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  const before = page.viewportSize() ?? { width: 1100, height: 900 };
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const v of await axeViolations(page))
      if (v.impact === 'serious' || v.impact === 'critical')
        found.push(`${width} px: ${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
  }
  await page.setViewportSize(before);
  return found;
}

/** The page fits a 390 px phone and a 1280 px screen without scrolling sideways. */
async function fits(page: Page): Promise<void> {
  expect(await widths(page)).toEqual({ 390: 390, 1280: 1280 });
}

/** Words a customer should never read: the machinery's (tool names, routing codes, "the user"). */
const MACHINE_WORDS = /ROUTE:|issue_refund|lookup_order|reverse_duplicate_charge|the user|tool/i;

/** What the customer reads (the details toggle's summary and its lines included). */
const pageText = (page: Page): Promise<string> => page.evaluate<string>(`document.querySelector('main').innerText`);

describe('the web desk in a real browser', () => {
  it('answers a billing question: the answer alone, a progress line while it works, the machinery behind a details toggle by branch', async () => {
    let signInPage: string[] = ['not audited'];
    const { page, watch } = await customer('aiko', async (p) => {
      signInPage = await seriousViolations(p);
      await fits(p);
    });
    expect(signInPage).toEqual([]);
    // An empty chat says what to ask, and the message field has the focus.
    expect(await page.textContent('#log')).toContain('I was charged twice for order 42');
    expect(await page.evaluate<string>('document.activeElement?.id ?? ""')).toBe('message');
    expect(await page.textContent('#budget')).toBe('');
    await send(page, 'I was charged twice for order 42');
    await waitForStatus(page, 'The desk is working on it: ');
    await waitForLine(page, 'Case closed.');
    await settled(page);
    expect(await logLines(page)).toEqual([
      { kind: 'message', text: 'I was charged twice for order 42' },
      {
        kind: 'answer',
        text: 'I reversed the duplicate charge on invoice INV-42; you are now charged 80 EUR once. Case closed.',
      },
    ]);
    const [details] = await detailLines(page);
    expect(details).toEqual(
      expect.arrayContaining([
        'triage: decided this is for billing',
        'triage: sent the case to billing',
        'billing: looked up order 42',
        'billing: reversed the duplicate charge on invoice INV-42',
        'notes: Case note: billing request about order 42.',
      ]),
    );
    // Branch by branch: every line of a branch together, the branches in the order they started.
    const branches = (details ?? []).map((l) => l.split(':')[0]);
    expect([...new Set(branches)]).toEqual(['triage', 'billing', 'notes', 'summary']);
    expect(branches).toEqual([...branches].sort((a, b) => branches.indexOf(a) - branches.indexOf(b)));
    expect(await page.isVisible('#log details.details li')).toBe(false); // closed until the customer opens it
    expect(await pageText(page)).not.toMatch(MACHINE_WORDS);
    await until(
      page,
      `/^Budget: [1-9][0-9]* of 200000 tokens spent in 6 model calls/.test(document.getElementById('budget').textContent)`,
    );
    // The conversation is listed under its first message.
    expect(await page.$$eval('#conversations li', (items) => items.map((i) => i.textContent))).toEqual([
      'I was charged twice for order 42',
    ]);
    // Every input has a label; axe finds nothing serious at either width; nothing scrolls sideways.
    expect(await page.$$eval('input', (inputs) => inputs.filter((i) => i.labels?.length === 0).length)).toBe(0);
    await page.click('#log details.details summary');
    expect(await seriousViolations(page)).toEqual([]);
    await fits(page);
    expect(watch.errors).toEqual([]);
    expect(watch.offOrigin).toEqual([]);
  });

  it('a refund over the limit waits for a person; the supervisor sees the customer and the order and approves with a note the customer reads; a reload shows the same; a denial says so in plain words', async () => {
    const { page, watch } = await customer('ben');
    await send(page, 'Please refund order 108, 60 EUR');
    await waitForStatus(page, 'A person on our team is looking at it');
    await waitForLine(page, 'Waiting for a person on our team to approve a refund of 60 EUR for order 108.');
    expect(await page.getAttribute('#send', 'aria-disabled')).toBe('true');
    // Enter while it waits says why nothing was sent.
    await send(page, 'hello?');
    await until(
      page,
      `document.getElementById('alert').textContent.includes('A person on our team is looking at your request')`,
    );
    expect(await refundsMade(dir)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    const supervisor = await openSupervisor(browser, desk.supervisorUrl);
    const supervisorWatch = watchPage(supervisor, desk.url);
    const item = supervisor.locator('#waiting .item', { hasText: 'A refund of 60 EUR for order 108' });
    await item.waitFor();
    const facts = await item.locator('dl.facts').innerText();
    expect(facts).toMatch(/Customer\s+ben \(signed in\); the order is Ben Okafor's \(shop customer c2\)/);
    expect(facts).toMatch(/Order\s+108: Standing desk, paid 420 EUR, nothing refunded yet/);
    expect(facts).toMatch(/Asked\s+A refund of 60 EUR for order 108, because: "Please refund order 108, 60 EUR"/);
    expect(facts).toMatch(/Asked by\s+the refund agent/);
    expect(await item.locator('.transcript li').allTextContents()).toEqual([
      'ben: Please refund order 108, 60 EUR',
      'desk: Waiting for a person on our team to approve a refund of 60 EUR for order 108.',
    ]);
    expect(await seriousViolations(supervisor)).toEqual([]);
    await fits(supervisor);
    await answer(supervisor, 'A refund of 60 EUR for order 108', true, 'Refunded as a goodwill gesture.');

    // The customer's page goes on by itself: the decision with the note, then the answer.
    await waitForLine(page, 'Approved by our team: Refunded as a goodwill gesture.');
    await waitForLine(page, 'I refunded 60 EUR for order 108; it reaches your card in 3 to 5 days. Case closed.');
    await settled(page);
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
    const live = { lines: await logLines(page), details: await detailLines(page) };
    expect(live.lines).toEqual([
      { kind: 'message', text: 'Please refund order 108, 60 EUR' },
      { kind: 'decision approved', text: 'Approved by our team: Refunded as a goodwill gesture.' },
      { kind: 'answer', text: 'I refunded 60 EUR for order 108; it reaches your card in 3 to 5 days. Case closed.' },
    ]);
    expect(live.details[0]).toEqual(
      expect.arrayContaining([
        "refund: paused for a person's answer",
        'refund: went on after the answer',
        'refund: refunded 60 EUR for order 108',
      ]),
    );
    // The same after a reload.
    await page.reload();
    await page.waitForSelector('body[data-ready]', { state: 'attached' });
    await settled(page);
    expect({ lines: await logLines(page), details: await detailLines(page) }).toEqual(live);

    // A page opened again while a refund waits shows it from the store, and goes on when it is denied.
    await send(page, 'Please refund order 108, 100 EUR');
    await waitForStatus(page, 'A person on our team is looking at it');
    await page.reload();
    await waitForStatus(page, 'A person on our team is looking at it');
    await waitForLine(page, 'Waiting for a person on our team to approve a refund of 100 EUR for order 108.');
    await answer(supervisor, 'A refund of 100 EUR for order 108', false, 'Please send the desk back first.');
    await waitForLine(page, 'Not approved: Please send the desk back first.');
    await settled(page);
    const denied = (await logLines(page)).slice(3);
    expect(denied[0]).toEqual({ kind: 'message', text: 'Please refund order 108, 100 EUR' });
    expect(denied[1]).toEqual({ kind: 'decision denied', text: 'Not approved: Please send the desk back first.' });
    expect(denied[2]?.kind).toBe('answer');
    expect(await pageText(page)).not.toMatch(MACHINE_WORDS);
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
    expect(await supervisor.textContent('#waiting-status')).toContain(
      'Denied: A refund of 100 EUR for order 108 for ben, with your note',
    );
    await fits(page);

    // The conversation's row names it by its first message; its inspector page fits both widths.
    const row = supervisor.locator('#conversations tbody tr', { hasText: 'ben' });
    expect(await row.textContent()).toContain('Please refund order 108, 60 EUR');
    await Promise.all([supervisor.waitForURL(/\/inspect\//), row.locator('a').click()]);
    expect(await supervisor.textContent('body')).toContain('refund');
    expect(await supervisor.textContent('body')).not.toContain('skein-server');
    await fits(supervisor);
    expect([...watch.errors, ...supervisorWatch.errors]).toEqual([]);
  });

  it('two customers at once in two browser contexts: each sees only their own conversation and its details', async () => {
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
    const details = await carol.page.evaluate(
      async (id) => (await fetch(`/desk/api/conversations/${encodeURIComponent(id)}/details?kind=graphs`)).status,
      daveId,
    );
    expect(details).toBe(404);
    expect([...carol.watch.errors, ...dave.watch.errors]).toEqual([]);
  });

  it('the server SIGKILLed in the middle of a turn and started again: the page reconnects, the turn completes once, the refund is paid once', async () => {
    const { page, watch } = await customer('erin');
    await send(page, 'Please refund order 7');
    // The refund tool waits 150 ms after paying: the kill lands between the payment and its result.
    await expect
      .poll(() => refundsMade(dir), { interval: 10, timeout: 30_000 })
      .toContainEqual({
        orderId: '7',
        amountEur: 12,
      });
    await desk.stop('SIGKILL');
    await waitForStatus(page, 'Connection lost; reconnecting');
    desk = await startDeskWeb(['--dir', dir, '--port', String(desk.port)], ENV);
    await waitForLine(page, 'I refunded 12 EUR for order 7; it reaches your card in 3 to 5 days. Case closed.');
    await settled(page);
    const lines = (await logLines(page)).map((l) => l.text);
    expect(lines.filter((l) => l.endsWith('Case closed.'))).toHaveLength(1);
    const [details] = await detailLines(page);
    expect(details).toContain('refund: went on after the desk restarted');
    expect(details?.filter((l) => l === 'refund: refunded 12 EUR for order 7')).toHaveLength(1);
    expect((await refundsMade(dir)).filter((r) => r.orderId === '7')).toEqual([{ orderId: '7', amountEur: 12 }]);
    // The connection errors of the restart are the browser's network log; the page itself threw nothing.
    expect(watch.errors).toEqual([]);
    expect(watches.flatMap((w) => w.offOrigin)).toEqual([]);
  });
});
