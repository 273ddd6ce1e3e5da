/**
 * Makes the README's screenshots of the web desk from a real run: `npm run desk:web` (graph shape,
 * scripted models) in a temporary directory, Debian's headless chromium; a customer asks about a
 * double charge, then for a refund over the limit; the supervisor page is shot while the refund
 * waits, the customer's page after the supervisor approved it.
 * Run: npm run desk:web:screenshots   (writes examples/support-desk/docs/web-*.png)
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './test-support/browser.js';
import { answer, openSupervisor, send, signIn, waitForLine, waitForStatus } from './test-support/desk-pages.js';
import { startDeskWeb } from './test-support/desk-web-process.js';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'skein-desk-web-shots-'));
const desk = await startDeskWeb(['--dir', dir], { DESK_MODEL: 'scripted' });
const browser = await launchChromium();
try {
  await mkdir(docs, { recursive: true });
  const customer = await signIn(browser, desk.url, 'aiko');
  await send(customer, 'I was charged twice for order 42');
  await waitForLine(customer, 'Case closed.');
  await send(customer, 'Please refund order 108, 60 EUR');
  await waitForStatus(customer, 'Waiting for a person to approve');
  const supervisor = await openSupervisor(browser, desk.supervisorUrl);
  await supervisor.locator('#waiting .item').waitFor();
  await supervisor.screenshot({ path: join(docs, 'web-supervisor.png'), fullPage: true });
  await answer(supervisor, 'A refund of 60 EUR for order 108', true);
  await waitForLine(customer, 'I refunded 60 EUR for order 108; it reaches your card in 3 to 5 days. Case closed.');
  await waitForStatus(customer, '');
  await customer.screenshot({ path: join(docs, 'web-customer.png'), fullPage: true });
  console.log(`wrote ${join(docs, 'web-customer.png')} and ${join(docs, 'web-supervisor.png')}`);
} finally {
  await browser.close();
  await desk.stop();
  await rm(dir, { recursive: true, force: true });
}
