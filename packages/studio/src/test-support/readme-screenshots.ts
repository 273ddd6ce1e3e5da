/**
 * Makes the README's screenshots from a real run: `skein studio` on the support desk (scripted
 * models) in a temporary directory, Debian's headless chromium, keyboard only: a refund over the
 * limit waits for approval (the graph lit, the approval in place), is approved with a note, the step
 * slider goes back to the triage step, and a fork with "ROUTE: billing" runs the other route; the
 * desk's graph cases are evaluated twice from the Evaluations panel (the second compared). Also
 * prints the time from a message sent to the first node shown running, over five messages.
 * Run: npm run screenshot --workspace @skein/studio   (writes packages/studio/docs/*.png)
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../../../examples/support-desk/src/web/test-support/browser.js';
import { startDeskStudio } from './studio-process.js';
import { answerWith, forkWith, rewindTo, runEvals, sendMessage } from './studio-steps.js';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'skein-studio-shots-'));
const studio = await startDeskStudio(dir);
const browser = await launchChromium();

async function shoot(page: Page, name: string): Promise<void> {
  const path = join(docs, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  console.log(`wrote ${path}`);
}

const firstRunning = (page: Page): Promise<number> =>
  page.evaluate(() => performance.getEntriesByName('studio-first-running').at(-1)?.duration ?? Number.NaN);

try {
  await mkdir(docs, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${studio.url}/#/graphs/desk/case-1`);
  await page.locator('.graph [data-node="triage"]').waitFor();
  await sendMessage(page, 'Please refund order 108, 60 EUR');
  await shoot(page, 'studio-approval');
  await answerWith(page, '#approve', 'ok, loyal customer');
  await shoot(page, 'studio-done');
  await rewindTo(page, /done triage(;|$)/);
  await page.locator('#fork-result').fill('ROUTE: billing');
  await shoot(page, 'studio-rewind');
  await forkWith(page, 'ROUTE: billing');
  await shoot(page, 'studio-fork');

  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(`${studio.url}/#/graphs/desk/timing-${i}`);
    await page.locator('.graph [data-node="triage"]').waitFor();
    await sendMessage(page, 'I was charged twice for order 107');
    times.push(await firstRunning(page));
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `send to first node shown running, 5 new conversations: median ${sorted[2]?.toFixed(0)} ms (min ${sorted[0]?.toFixed(0)}, max ${sorted[4]?.toFixed(0)})`,
  );
  // Last: the eval cases become conversations, listed (and tabbed through) before the message box.
  await page.goto(`${studio.url}/#/graphs/desk/evals-1`);
  await page.locator('#run-evals').waitFor();
  await runEvals(page, 'graph');
  await runEvals(page, 'graph');
  await shoot(page, 'studio-evals');
} finally {
  await browser.close();
  await studio.stop();
  await rm(dir, { recursive: true, force: true });
}
