/**
 * Page memory after a long run: `skein studio` on a graph whose one turn makes 500 node executions
 * (`loop-module.ts`, scripted models), the page opened on a new conversation in Debian's headless
 * chromium, the message sent, the turn followed to its end; then the page's JS heap (after a forced
 * collection), DOM nodes, listeners and main-thread time, against the same page before the message
 * and after a second 500-step turn.
 * Run: npm run page-memory --workspace @skein/studio   (STUDIO_LOOP_STEPS=500 by default)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium, tabTo } from '../../../../examples/support-desk/src/web/test-support/browser.js';
import { startStudio } from './studio-process.js';

const steps = Number(process.env['STUDIO_LOOP_STEPS'] ?? 500);
const module = fileURLToPath(new URL('./loop-module.ts', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'skein-studio-memory-'));
const studio = await startStudio(dir, module, { STUDIO_LOOP_STEPS: String(steps) });
const browser = await launchChromium();

interface PageMemory {
  heapKB: number;
  domNodes: number;
  listeners: number;
  /** The page's main-thread time spent in scripts and in layout and style, seconds since it opened. */
  scriptS: number;
  layoutS: number;
}

/** The page's JS heap after a full collection, its DOM nodes and event listeners. */
async function measure(cdp: CDPSession): Promise<PageMemory> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string): number => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
  return {
    heapKB: Math.round(metric('JSHeapUsedSize') / 1024),
    domNodes: metric('Nodes'),
    listeners: metric('JSEventListeners'),
    scriptS: metric('ScriptDuration'),
    layoutS: metric('LayoutDuration') + metric('RecalcStyleDuration'),
  };
}

/** Sends `message` and waits (up to 10 minutes) until the turn ends. */
async function runTurn(page: Page, message: string): Promise<number> {
  const started = performance.now();
  await tabTo(page, '#message');
  await page.keyboard.type(message);
  await tabTo(page, '#send');
  await page.keyboard.press('Enter');
  await page.locator('#status', { hasText: /^Turn (completed|failed)/ }).waitFor({ timeout: 600_000 });
  return performance.now() - started;
}

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${studio.url}/#/graphs/loop/long-1`);
  await page.locator('.graph [data-node="ping"]').waitFor();
  const rows: [string, PageMemory, number | undefined][] = [['page open, no run', await measure(cdp), undefined]];
  const first = await runTurn(page, 'serve');
  rows.push([`after one ${steps}-step turn`, await measure(cdp), first]);
  const second = await runTurn(page, 'again');
  rows.push([`after two ${steps}-step turns`, await measure(cdp), second]);
  console.log(`studio page memory (${steps} node executions per turn):`);
  for (const [what, m, ms] of rows)
    console.log(
      `  ${what}: JS heap ${m.heapKB} KB, ${m.domNodes} DOM nodes, ${m.listeners} listeners, page busy so far: script ${m.scriptS.toFixed(2)} s, layout and style ${m.layoutS.toFixed(2)} s${ms === undefined ? '' : `; the turn took ${(ms / 1000).toFixed(1)} s`}`,
    );
  console.log(`  status: ${await page.locator('#status').innerText()}`);
} finally {
  await browser.close();
  await studio.stop();
  await rm(dir, { recursive: true, force: true });
}
