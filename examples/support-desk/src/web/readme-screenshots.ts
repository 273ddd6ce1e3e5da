/**
 * Makes the README's screenshots of every page from a real run, at a laptop's and a phone's width:
 * `npm run desk:web` (graph shape, scripted models) in a temporary directory, Debian's headless
 * chromium; a customer asks about a double charge, then for a refund over the limit; the supervisor
 * page is shot while the refund waits, the customer's page after the supervisor approved it with a
 * note (its details opened); then the conversation's inspector page, exported (`skein export`) and
 * served (`skein serve`).
 * Run: npm run desk:web:screenshots --workspace examples   (writes examples/support-desk/docs/*.png)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { listSessionSummaries, loadSession, openStore, pageData, renderHtmlPage, serveStore } from '@skein/inspector';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './test-support/browser.js';
import {
  answer,
  openSupervisor,
  send,
  settled,
  signIn,
  waitForLine,
  waitForStatus,
} from './test-support/desk-pages.js';
import { startDeskWeb } from './test-support/desk-web-process.js';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'skein-desk-web-shots-'));
const desk = await startDeskWeb(['--dir', dir], { DESK_MODEL: 'scripted' });
const browser = await launchChromium();
const written: string[] = [];

/** Shoots `page` whole at `width` px into `docs/<name>.png`. */
async function shoot(page: Page, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  const path = join(docs, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  written.push(path);
}

/** A page of its own (its own cookies) at `url`. */
async function open(on: Browser, url: string): Promise<Page> {
  const page = await (await on.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(url);
  return page;
}

try {
  await mkdir(docs, { recursive: true });
  const customer = await signIn(browser, desk.url, 'aiko');
  await send(customer, 'I was charged twice for order 42');
  await waitForLine(customer, 'Case closed.');
  await settled(customer);
  await send(customer, 'Please refund order 108, 60 EUR');
  await waitForStatus(customer, 'A person on our team');
  const supervisor = await openSupervisor(browser, desk.supervisorUrl);
  await supervisor.locator('#waiting .item').waitFor();
  await shoot(supervisor, 'web-supervisor', 1280);
  await shoot(supervisor, 'web-supervisor-phone', 390);
  await answer(supervisor, 'A refund of 60 EUR for order 108', true, 'Refunded as a goodwill gesture.');
  await waitForLine(customer, 'I refunded 60 EUR for order 108; it reaches your card in 3 to 5 days. Case closed.');
  await settled(customer);
  await customer.locator('#log .case').last().locator('details.details summary').click();
  await shoot(customer, 'web-customer', 1280);
  await shoot(customer, 'web-customer-phone', 390);

  // The conversation's run in the inspector: the page `skein export` writes, and the one `skein serve` serves.
  const conversation = new URL(customer.url()).searchParams.get('c') ?? '';
  const store = openStore(`sqlite:${join(dir, 'desk.db')}`);
  try {
    const session = (await listSessionSummaries(store)).find((s) => s.id.endsWith(conversation));
    if (!session) throw new Error(`No session of conversation ${conversation} in ${store.label}.`);
    const file = join(dir, 'run.html');
    await writeFile(file, renderHtmlPage(pageData(await loadSession(store, session.id))));
    await shoot(await open(browser, pathToFileURL(file).href), 'inspector-export', 1280);
    const served = await serveStore(store, { pollMs: 60_000 });
    try {
      await shoot(
        await open(browser, `${served.url}session/${encodeURIComponent(session.id)}/`),
        'inspector-serve-phone',
        390,
      );
    } finally {
      await served.close();
    }
  } finally {
    await store.close();
  }
  console.log(`wrote ${written.map((p) => p.slice(p.lastIndexOf('/') + 1)).join(', ')} in ${docs}`);
} finally {
  await browser.close();
  await desk.stop();
  await rm(dir, { recursive: true, force: true });
}
