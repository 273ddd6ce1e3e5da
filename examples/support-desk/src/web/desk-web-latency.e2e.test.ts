import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatChunks, OpenAITestServer, type RecordedRequest } from '@skein/model-openai/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, watchPage } from './test-support/browser.js';
import { startDeskWeb, type DeskWebProcess } from './test-support/desk-web-process.js';
import { send, signIn, until, waitForLine } from './test-support/desk-pages.js';

// How long after the model sends its first token the customer page shows it: the one-agent desk
// (`--shape agent`) on an OpenAI-compatible model served on loopback (OPENAI_BASE_URL), the page in
// Debian's headless chromium. Reported, not asserted (a shared machine's load is not the desk's).

const ROUNDS = 5;
let dir = '';
let model: OpenAITestServer;
let desk: DeskWebProcess;
let browser: Browser;
/** When the model server sent each answer (ms since the epoch), by answer number. */
const sentAt: number[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-web-latency-'));
  model = await OpenAITestServer.start();
  // Each message makes two calls: the desk's answer and the injection judge of its input (same model).
  let answers = 0;
  const reply = (request: RecordedRequest) => {
    if (JSON.stringify(request.body).includes('You are a guardrail.'))
      return { chunks: chatChunks({ text: ['PASS'] }) };
    const i = ++answers;
    sentAt[i] = Date.now();
    return { chunks: chatChunks({ text: [`Answer ${i}`, ' from the model on loopback.'] }) };
  };
  for (let i = 0; i < 2 * ROUNDS; i++) model.enqueue(reply);
  const env = { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'test', OPENAI_MODEL: 'test-model' };
  [desk, browser] = await Promise.all([startDeskWeb(['--dir', dir, '--shape', 'agent'], env), launchChromium()]);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await desk?.stop();
  await model?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Resolves with the time of the first frame painted after the log first shows `marker` (in-page code as a string: no DOM types here). */
function shownAt(page: Page, marker: string): Promise<number> {
  return page.evaluate<number>(`new Promise((resolve) => {
    const log = document.getElementById('log');
    const observer = new MutationObserver(() => {
      if (!log.textContent.includes(${JSON.stringify(marker)})) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve(Date.now()));
    });
    observer.observe(log, { subtree: true, childList: true, characterData: true });
  })`);
}

it('shows the first answer token soon after the model sends it (measured, reported)', async () => {
  expect(desk.output()).toContain(`OpenAI-compatible test-model at ${model.url}`);
  const page = await signIn(browser, desk.url, 'fiona');
  const watch = watchPage(page, desk.url);
  const latencies: number[] = [];
  for (let i = 1; i <= ROUNDS; i++) {
    const shown = shownAt(page, `Answer ${i}`);
    await send(page, `Hello, this is message ${i}`);
    latencies.push((await shown) - (sentAt[i] ?? Number.NaN));
    await waitForLine(page, `Answer ${i} from the model on loopback.`);
    await until(page, `!document.getElementById('send').disabled`);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `[desk web] first answer token on the page, ms after the model sent it: median ${sorted[Math.floor(ROUNDS / 2)]}, min ${sorted[0]}, max ${sorted.at(-1)} (${latencies.join(', ')})`,
  );
  expect(latencies.every((ms) => Number.isFinite(ms) && ms >= 0)).toBe(true);
  expect(watch.errors).toEqual([]);
});
