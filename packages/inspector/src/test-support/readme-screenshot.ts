/**
 * Makes the README's screenshot from the support example as a user runs it: the desk
 * (`examples/support-desk`, graph shape, scripted models, file sessions) handles a refund that needs
 * approval and gets a yes from a later process; its session's page is exported and shot in headless
 * Chromium.
 * Run: npm run screenshot --workspace @skein/inspector   (writes docs/support-desk.png)
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadSession, openFileStore, pageData, renderHtmlPage } from '../index.js';
import { Chromium, load, watchPage } from './chromium.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const out = fileURLToPath(new URL('../../docs/support-desk.png', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'skein-desk-shot-'));
try {
  await writeFile(join(dir, 'script.txt'), 'Please refund order 108, 60 EUR\n');
  const desk = join(root, 'examples/support-desk/src/main.ts');
  const run = (...args: string[]): void => {
    execFileSync(
      process.execPath,
      ['--conditions=@skein/source', '--import', 'tsx', desk, '--dir', dir, '--store', 'file', ...args],
      { cwd: root, stdio: 'ignore', env: { ...process.env, DESK_MODEL: 'scripted' } },
    );
  };
  // The refund waits for a person, who answers from another process a few seconds later.
  run('--script', join(dir, 'script.txt'));
  await new Promise((resolve) => setTimeout(resolve, 3000));
  run('--script', join(dir, 'script.txt'), '--resume', '--yes');
  const file = join(dir, 'desk.html');
  await writeFile(
    file,
    renderHtmlPage(pageData(await loadSession(openFileStore(join(dir, 'sessions')), 'customer-1-graph'))),
  );
  const browser = await Chromium.launch();
  try {
    const page = await browser.newPage();
    await browser.send(
      'Emulation.setDeviceMetricsOverride',
      { width: 1200, height: 1100, deviceScaleFactor: 1, mobile: false },
      page,
    );
    const watch = await watchPage(browser, page);
    await load(browser, page, pathToFileURL(file).href);
    if (watch.errors.length > 0) throw new Error(`The page logged errors: ${watch.errors.join('; ')}`);
    watch.stop();
    const { data } = (await browser.send('Page.captureScreenshot', { format: 'png' }, page)) as { data: string };
    await writeFile(out, Buffer.from(data, 'base64'));
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
