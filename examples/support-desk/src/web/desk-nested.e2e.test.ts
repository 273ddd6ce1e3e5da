import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './test-support/browser.js';
import { startDeskWeb, type DeskWebProcess } from './test-support/desk-web-process.js';
import { logLines, send, settled, signIn, waitForStatus } from './test-support/desk-pages.js';

// The one-agent desk (`--shape agent`: billing and refund are agents it uses as tools) in a child
// process, tools slowed by 400 ms as a remote backend would be, in headless chromium: while the
// nested billing agent works, the customer's progress line says what it is doing.

let dir = '';
let desk: DeskWebProcess;
let browser: Browser;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-nested-'));
  [desk, browser] = await Promise.all([
    startDeskWeb(['--dir', dir, '--shape', 'agent'], {
      DESK_TOOL_DELAY_MS: '400',
    }),
    launchChromium(),
  ]);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await desk?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the customer page of the one-agent desk', () => {
  it('says what the agent used as a tool is doing while it works, then shows the answer alone', async () => {
    const page = await signIn(browser, desk.url, 'aiko');
    await send(page, 'I was charged twice for order 42');
    await waitForStatus(page, 'The desk is working on it: billing agent: ');
    await settled(page);
    const lines = await logLines(page);
    expect(lines[0]).toEqual({
      kind: 'message',
      text: 'I was charged twice for order 42',
    });
    expect(lines.filter((l) => l.kind === 'answer')).toHaveLength(1);
    expect(lines.map((l) => l.text).join('\n')).not.toContain('billing agent:');
  });
});
