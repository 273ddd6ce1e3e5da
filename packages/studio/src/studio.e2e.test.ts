/**
 * The studio in Debian's chromium, on the support desk (scripted models), as a developer uses it:
 * keyboard only. A refund over the limit waits; it is approved with a note in place; the step slider
 * goes back to the triage step; a fork with an edited triage result runs the billing route live.
 * The desk's eval set runs from the page (pass/fail, reasons, each case's run one link away), and
 * again, compared with the first run. axe-core finds nothing serious or critical; no request leaves
 * 127.0.0.1; no console error.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, tabTo, type PageWatch } from '../../../examples/support-desk/src/web/test-support/browser.js';
import { openDeskStudioPage } from './test-support/desk-studio-page.js';
import type { StudioProcess } from './test-support/studio-process.js';
import { answerWith, forkWith, nodeState, rewindTo, runEvals, sendMessage } from './test-support/studio-steps.js';

let studio: StudioProcess;
let page: Page;
let watch: PageWatch;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ studio, page, watch, close } = await openDeskStudioPage('skein-studio-'));
}, 180_000);

afterAll(async () => {
  await close?.();
});

describe('skein studio on the support desk', () => {
  it('chat, approve in place, rewind to triage, fork with another route: keyboard only, accessible, local', async () => {
    await page.goto(`${studio.url}/#/graphs/desk/case-1`);
    await page.locator('.graph [data-node="triage"]').waitFor();

    // Every class a node takes while the run goes (the page redraws them live, not only at the end):
    // each change's old value and the value now, so a class set and replaced before the observer's
    // callback ran (a node that starts and ends within one batch of events) is seen too.
    await page.evaluate(`(() => {
      window.seen = [];
      new MutationObserver((changes) => changes.forEach((c) => window.seen.push(
        c.target.dataset.node + ':' + c.oldValue,
        c.target.dataset.node + ':' + c.target.getAttribute('class'),
      ))).observe(document.querySelector('.graph'), { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['class'] });
    })()`);
    await sendMessage(page, 'Please refund order 108, 60 EUR');
    const seen = await page.evaluate<string[]>('window.seen');
    expect(seen).toContain('triage:node running');
    await page.locator('#approve').waitFor();
    expect(await nodeState(page, 'refund')).toContain('waiting');
    expect(await nodeState(page, 'triage')).toContain('completed');
    expect(await page.locator('#lanes .lane').count()).toBeGreaterThan(1);
    const firstRunning = await page.evaluate(
      () => performance.getEntriesByName('studio-first-running')[0]?.duration ?? -1,
    );
    expect(firstRunning).toBeGreaterThan(0);
    console.log(`[studio] send to first node shown running: ${firstRunning.toFixed(1)} ms`);

    await answerWith(page, '#approve', 'ok, loyal customer');
    expect(await page.locator('#status').innerText()).toMatch(/Turn completed/);
    expect(await nodeState(page, 'summary')).toContain('completed');
    expect(await page.locator('#chat').innerText()).toMatch(/refund/i);

    await rewindTo(page, /done triage(;|$)/);
    expect(await nodeState(page, 'triage')).toContain('completed');
    expect(await nodeState(page, 'refund')).not.toContain('completed');
    await expect.poll(() => page.locator('#fork-result').inputValue()).toMatch(/ROUTE:\s*refund/i);

    await forkWith(page, 'ROUTE: billing');
    expect(page.url()).toMatch(/#\/graphs\/desk\/case-1-fork-/);
    expect(await page.locator('#status').innerText()).toMatch(/Turn completed/);
    expect(await nodeState(page, 'billing')).toContain('completed');
    expect(await nodeState(page, 'refund')).not.toContain('completed');
    expect(await page.locator('.conversations').innerText()).toMatch(/fork of case-1 at step/);

    const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious).toEqual([]);
    expect(watch.offOrigin).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 180_000);

  it('a swarm: its members lit, its steps on the slider, no console error', async () => {
    await page.goto(`${studio.url}/#/swarms/desk/sw-1`);
    await page.locator('.graph [data-node="billing"]').waitFor();
    await sendMessage(page, 'I was charged twice for order 108');
    expect(await page.locator('#status').innerText()).toMatch(/Turn completed/);
    expect(await nodeState(page, 'triage')).toContain('completed');
    expect(await nodeState(page, 'billing')).toContain('completed');
    expect(await page.locator('#step-words').innerText()).toMatch(/done triage, billing/);
    expect(watch.errors).toEqual([]);
    expect(watch.offOrigin).toEqual([]);
  }, 120_000);

  it("evaluations: the desk's eval set run from the page, per case pass/fail with reasons and a link to its run, then compared with the previous run", async () => {
    await page.goto(`${studio.url}/#/graphs/desk/ev-1`);
    await page.locator('#run-evals').waitFor();
    const started = performance.now();
    await runEvals(page, 'graph');
    console.log(`[studio] the desk's 12 graph cases run from the page: ${(performance.now() - started).toFixed(0)} ms`);
    expect(await page.locator('#eval-status').innerText()).toMatch(/^Evaluation \S+ finished/);
    const rows = page.locator('#eval-results tbody tr');
    expect(await rows.count()).toBe(12);
    expect(await page.locator('#eval-summary').innerText()).toMatch(/^Run \S+: \d+ of 12 cases passed, \d+ failed/);
    expect(await page.locator('#eval-changes').innerText()).toMatch(/No previous run/);
    const billing = page.locator('#eval-results tbody tr', { hasText: 'graph-billing-double-charge' });
    expect(await billing.locator('td').nth(0).innerText()).toMatch(/^(pass|FAIL)/);
    expect(await billing.locator('.reasons').innerText()).toMatch(/trajectory: /);
    const first = (await page.locator('#eval-summary').innerText()).split(':')[0];

    await runEvals(page, 'graph');
    const changes = await page.locator('#eval-changes').innerText();
    expect(changes).toMatch(/^Compared with run \S+: fixed: .*; newly failing: .*;/);
    expect(changes).toContain(first?.replace(/^Run /, '') ?? 'missing');

    // Each case's run is a conversation of the studio: its link opens it (keyboard only).
    const href = (await billing.locator('a').getAttribute('href')) ?? '';
    expect(href).toMatch(/^#\/graphs\/desk\/eval-\S+\.graph-billing-double-charge\.r0$/);
    await tabTo(page, `#eval-results a[href="${href}"]`, 120);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.hash === href);
    await expect.poll(() => page.locator('#chat').innerText()).toContain('I was charged twice for order 42');

    const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious).toEqual([]);
    expect(watch.offOrigin).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 300_000);
});
