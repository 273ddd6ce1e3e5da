/**
 * The browser tests' fixture: `skein studio` on the support desk (scripted models, store and data in a
 * temporary directory) and a page of Debian's headless chromium watched for console errors and
 * requests that leave 127.0.0.1. `close()` stops both and removes the directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  launchChromium,
  watchPage,
  type PageWatch,
} from '../../../../examples/support-desk/src/web/test-support/browser.js';
import { startDeskStudio, type StudioProcess } from './studio-process.js';

/** A running desk studio with one watched page. */
export interface DeskStudioPage {
  studio: StudioProcess;
  page: Page;
  watch: PageWatch;
  close(): Promise<void>;
}

/** Starts the desk studio and the browser (their directory named `prefix...`). */
export async function openDeskStudioPage(prefix: string): Promise<DeskStudioPage> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const [studio, browser] = await Promise.all([startDeskStudio(dir), launchChromium()]);
  const page = await browser.newPage();
  return {
    studio,
    page,
    watch: watchPage(page, studio.url),
    close: async () => {
      await browser.close();
      await studio.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
