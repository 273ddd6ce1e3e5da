/** What a person does on the desk's pages, by keyboard only, and what the pages show: for the browser tests and the screenshots. */
import type { Browser, Page } from 'playwright-core';
import { tabTo } from './browser.js';

/** One line of the customer's conversation as the page shows it. */
export interface LogLine {
  kind: string;
  text: string;
}

/** The widths every page is checked at: a phone and a laptop. */
export const WIDTHS = [390, 1280] as const;

/** Opens a fresh browser context (its own cookies) on the desk and signs `customer` in, by keyboard; `onSignInPage` looks at the sign-in page first. */
export async function signIn(
  browser: Browser,
  url: string,
  customer: string,
  onSignInPage?: (page: Page) => Promise<void>,
  width = 1100,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${url}/`);
  await onSignInPage?.(page);
  await tabTo(page, '#customer');
  await page.keyboard.type(customer);
  await page.keyboard.press('Enter');
  await page.waitForSelector('body[data-ready]', { state: 'attached' });
  return page;
}

/** Writes `text` in the message field and sends it with Enter, by keyboard. */
export async function send(page: Page, text: string): Promise<void> {
  await tabTo(page, '#message');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/** The conversation's lines, in order. */
export function logLines(page: Page): Promise<LogLine[]> {
  // In-page code is a string (this file is type-checked without the DOM's types), evaluated through the
  // DevTools protocol: the page's Content-Security-Policy forbids eval, so no `waitForFunction` with strings.
  return page.evaluate<LogLine[]>(
    `[...document.querySelectorAll('#log .part')].map((p) => ({ kind: p.dataset.kind ?? '', text: p.textContent ?? '' }))`,
  );
}

/** Evaluates `expression` in the page every 20 ms until it is true; throws after `timeout` ms saying what never held. */
export async function until(page: Page, expression: string, timeout = 30_000): Promise<void> {
  const end = Date.now() + timeout;
  while (!(await page.evaluate<boolean>(expression))) {
    if (Date.now() > end) throw new Error(`Never true within ${timeout} ms: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The details of each case (`who: line` per line), as the page holds them (also while the toggle is closed). */
export function detailLines(page: Page): Promise<string[][]> {
  return page.evaluate<string[][]>(
    `[...document.querySelectorAll('#log .case')].map((c) => [...c.querySelectorAll('.branch')].flatMap((b) => [...b.querySelectorAll('li')].map((li) => b.querySelector('.who').textContent + ': ' + li.textContent)))`,
  );
}

/** The page's width at each of `WIDTHS` (its document's scroll width: more than the viewport scrolls sideways). */
export async function widths(page: Page): Promise<Record<number, number>> {
  const out: Record<number, number> = {};
  const before = page.viewportSize() ?? { width: 1100, height: 900 };
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    out[width] = await page.evaluate<number>('document.documentElement.scrollWidth');
  }
  await page.setViewportSize(before);
  return out;
}

/** Waits until the conversation shows a line containing `text`. */
export function waitForLine(page: Page, text: string, timeout = 30_000): Promise<void> {
  const has = `[...document.querySelectorAll('#log .part')].some((p) => p.textContent.includes(${JSON.stringify(text)}))`;
  return until(page, has, timeout);
}

/** Waits until the page shows the stored conversation, nothing on its way (no turn, no reconnect, no read). */
export function settled(page: Page, timeout = 30_000): Promise<void> {
  return until(page, `document.body.dataset.settled === 'true'`, timeout);
}

/** Waits until the status line (`role=status`) contains `text` (`''`: until it is empty). */
export function waitForStatus(page: Page, text: string, timeout = 30_000): Promise<void> {
  const check = text === '' ? `=== ''` : `.includes(${JSON.stringify(text)})`;
  return until(page, `document.getElementById('status').textContent${check}`, timeout);
}

/** Opens the supervisor page (its key in the address) in a fresh context. */
export async function openSupervisor(browser: Browser, supervisorUrl: string, width = 1100): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(supervisorUrl);
  // The list is read once before it shows (`data-count` is set then).
  await page.waitForSelector('#waiting-status[data-count]', { state: 'attached' });
  return page;
}

/** On the supervisor page: waits for the item that contains `text`, types `note` (if any) and approves or denies it, by keyboard. */
export async function answer(page: Page, text: string, approve: boolean, note = ''): Promise<void> {
  const item = page.locator('#waiting .item', { hasText: text });
  await item.waitFor({ timeout: 30_000 });
  const key = await item.getAttribute('data-key');
  const within = `#waiting .item[data-key="${key}"]`;
  if (note) {
    await tabTo(page, `${within} input`);
    await page.keyboard.type(note);
  }
  await tabTo(page, `${within} button[data-answer="${approve ? 'approve' : 'deny'}"]`);
  await page.keyboard.press('Enter');
  await item.waitFor({ state: 'detached', timeout: 30_000 });
}
