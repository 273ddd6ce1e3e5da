/**
 * Debian's headless `chromium` driven by `playwright-core` (never a downloaded browser): installed
 * with apt-get when `/usr/bin/chromium` is missing, once across test files (a lock); a watch on what
 * a page logs and requests; axe-core's audit; and keyboard-only focus moves.
 */
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';

const run = promisify(execFile);

/** Where Debian's package puts the browser. */
const CHROMIUM = '/usr/bin/chromium';

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Returns `/usr/bin/chromium`, installing Debian's `chromium` first when it is missing (as root, or
 * through passwordless sudo; one lock file so parallel test files do not race apt). Throws with the
 * command to run by hand when it cannot.
 */
async function ensureChromium(): Promise<string> {
  if (await exists(CHROMIUM)) return CHROMIUM;
  const sudo = typeof process.getuid === 'function' && process.getuid() === 0 ? '' : 'sudo -n ';
  const apt = `${sudo}env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q`;
  const script = `test -x ${CHROMIUM} || { ${apt} update && ${apt} install -y chromium; }`;
  try {
    await run('flock', ['/tmp/skein-chromium-apt.lock', 'sh', '-c', script], {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 900_000,
    });
  } catch (error) {
    throw new Error(
      `The browser tests need Debian's chromium and installing it failed (${String(error).slice(0, 500)}). Install it by hand: sudo apt-get update && sudo apt-get install -y chromium`,
      { cause: error },
    );
  }
  if (!(await exists(CHROMIUM))) throw new Error(`apt-get finished but ${CHROMIUM} is still missing.`);
  return CHROMIUM;
}

/** Launches headless Debian chromium through playwright-core. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await ensureChromium();
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/** What a page did: console errors and uncaught exceptions, and requests that left `origin`. */
export interface PageWatch {
  errors: string[];
  /** Failed loads (`net::ERR_...`), kept apart: a test that stops the server expects some. */
  networkErrors: string[];
  offOrigin: string[];
}

/** Records, from now on, what `page` logs as an error and every request outside `origin`. */
export function watchPage(page: Page, origin: string): PageWatch {
  const watch: PageWatch = { errors: [], networkErrors: [], offOrigin: [] };
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    (/net::ERR_|Failed to load resource/.test(text) ? watch.networkErrors : watch.errors).push(text);
  });
  page.on('pageerror', (error) => watch.errors.push(`${error.name}: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:')) watch.offOrigin.push(url);
  });
  return watch;
}

/** One rule axe-core found broken. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Runs axe-core on the page (injected through the DevTools protocol, which the page's CSP allows) and returns its violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const { source } = (await import('axe-core')).default;
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    const { violations } = await axe.run();
    return (violations as { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]).map(
      (v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.flatMap((n) => n.target) }),
    );
  });
}

/** Presses Tab until the focused element matches `selector` (at most `limit` presses); throws when it never does. */
export async function tabTo(page: Page, selector: string, limit = 30): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate<boolean>(`document.activeElement?.matches(${JSON.stringify(selector)}) === true`)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector} in ${limit} presses: it is not reachable by keyboard.`);
}
