import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, watchPage } from './test-support/browser.js';
import { startDeskWeb, type DeskWebProcess } from './test-support/desk-web-process.js';
import { logLines, send, signIn, waitForLine, waitForStatus } from './test-support/desk-pages.js';

// `npm run desk:web` (graph shape, scripted models, SQLite in a temp dir) in Debian's headless chromium:
// the desk remembers a customer across conversations, and only that customer.

let dir = '';
let desk: DeskWebProcess;
let browser: Browser;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-web-memory-'));
  [desk, browser] = await Promise.all([startDeskWeb(['--dir', dir]), launchChromium()]);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await desk?.stop();
  await rm(dir, { recursive: true, force: true });
});

const answers = async (page: Parameters<typeof logLines>[0]): Promise<string[]> =>
  (await logLines(page)).filter((l) => l.kind === 'answer').map((l) => l.text);

it('a customer asking in a new conversation about "my double charge" gets order 42 / INV-42; another customer is asked which order', async () => {
  const aiko = await signIn(browser, desk.url, 'aiko');
  const watch = watchPage(aiko, desk.url);
  await send(aiko, 'I was charged twice for order 42');
  await waitForLine(aiko, 'Case closed.');
  await waitForStatus(aiko, '');
  await aiko.click('#new-conversation');
  await send(aiko, 'Did you fix my double charge?');
  await waitForLine(aiko, 'INV-42');
  await waitForStatus(aiko, '');
  expect((await answers(aiko)).at(-1)).toMatch(/INV-42/);
  expect((await answers(aiko)).join('\n')).not.toContain('I was charged twice'); // a new conversation on the page

  const ben = await signIn(browser, desk.url, 'ben');
  await send(ben, 'Did you fix my double charge?');
  await waitForLine(ben, 'Which order');
  await waitForStatus(ben, '');
  expect((await answers(ben)).join('\n')).not.toMatch(/42/);
  expect(watch.errors).toEqual([]);
}, 120_000);
