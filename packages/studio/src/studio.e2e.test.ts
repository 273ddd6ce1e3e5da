/**
 * The studio in Debian's chromium, on the support desk (scripted models), as a developer uses it:
 * keyboard only. A refund over the limit waits; it is approved with a note in place; the step slider
 * goes back to the triage step; a fork with an edited triage result runs the billing route live.
 * axe-core finds nothing serious or critical; no request leaves 127.0.0.1; no console error.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  axeViolations,
  launchChromium,
  tabTo,
  watchPage,
  type PageWatch,
} from '../../../examples/support-desk/src/web/test-support/browser.js';
import { startDeskStudio, type StudioProcess } from './test-support/studio-process.js';

let dir: string;
let studio: StudioProcess;
let browser: Browser;
let page: Page;
let watch: PageWatch;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-studio-'));
  [studio, browser] = await Promise.all([startDeskStudio(dir), launchChromium()]);
  page = await browser.newPage();
  watch = watchPage(page, studio.url);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await studio?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const nodeState = (node: string): Promise<string | null> =>
  page.locator(`.graph [data-node="${node}"]`).getAttribute('class');

/** Types into the focused field and presses keys: keyboard only. */
async function typeAt(selector: string, text: string): Promise<void> {
  await tabTo(page, selector);
  await page.keyboard.type(text);
}

describe('skein studio on the support desk', () => {
  it('chat, approve in place, rewind to triage, fork with another route: keyboard only, accessible, local', async () => {
    await page.goto(`${studio.url}/#/graphs/desk/case-1`);
    await page.locator('.graph [data-node="triage"]').waitFor();

    await typeAt('#message', 'Please refund order 108, 60 EUR');
    await tabTo(page, '#send');
    await page.keyboard.press('Enter');
    await page.locator('#approve').waitFor({ timeout: 30_000 });
    expect(await nodeState('refund')).toContain('waiting');
    expect(await nodeState('triage')).toContain('completed');
    expect(await page.locator('#lanes .lane').count()).toBeGreaterThan(1);
    const firstRunning = await page.evaluate(
      () => performance.getEntriesByName('studio-first-running')[0]?.duration ?? -1,
    );
    expect(firstRunning).toBeGreaterThan(0);
    console.log(`[studio] send to first node shown running: ${firstRunning.toFixed(1)} ms`);

    await typeAt('#note-0', 'ok, loyal customer');
    await tabTo(page, '#approve');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: 'Turn completed' }).waitFor({ timeout: 30_000 });
    expect(await nodeState('summary')).toContain('completed');
    expect(await page.locator('#chat').innerText()).toMatch(/refund/i);

    // Rewind: the slider to the step where triage had just finished.
    await tabTo(page, '#step');
    await page.keyboard.press('Home');
    for (let i = 0; i < 20; i++) {
      const words = await page.locator('#step-words').innerText();
      if (/done triage(;|$)/.test(words)) break;
      await page.keyboard.press('ArrowRight');
    }
    expect(await page.locator('#step-words').innerText()).toMatch(/done triage(;|$)/);
    expect(await nodeState('refund')).not.toContain('completed');
    await expect.poll(() => page.locator('#fork-result').inputValue()).toMatch(/ROUTE:\s*refund/i);

    await tabTo(page, '#fork-result');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('ROUTE: billing');
    await tabTo(page, '#fork');
    await page.keyboard.press('Enter');
    await page.waitForURL(/case-1-fork-/);
    await page.locator('#status', { hasText: /Turn (completed|interrupted)/ }).waitFor({ timeout: 30_000 });
    expect(await nodeState('billing')).toContain('completed');
    expect(await nodeState('refund')).not.toContain('completed');

    const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious).toEqual([]);
    expect(watch.offOrigin).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 180_000);
});
