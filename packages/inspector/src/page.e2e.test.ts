import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileSessionManager } from '@skein/session-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSession, openFileStore, pageData, renderHtmlPage, serveStore } from './index.js';
import { Chromium, load, watchPage } from './test-support/chromium.js';
import { supportGraph, writeFixtureSessions } from './test-support/fixtures.js';
import { evaluate } from '@skein/evals';
import { runCli } from './cli/run-cli.js';
import { captureIo } from './test-support/capture-io.js';
import shop, { shopAgent } from './test-support/eval-fixture.js';

// The exported page and the live server, checked in real headless Chromium (Debian's package,
// installed when missing): no network, no console errors, the graph, bars and messages drawn.

let dir = '';
let browser: Chromium;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-inspector-page-'));
  await writeFixtureSessions(dir);
  browser = await Chromium.launch();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Drawn {
  nodes: string[];
  takenEdges: number;
  bars: { node: string; status: string; width: number }[];
  conversations: string[];
  messages: number;
  status: string;
}

const DRAWN = `(() => ({
  nodes: [...document.querySelectorAll('svg.graph g.node')].map((g) => g.getAttribute('data-node') + ':' + g.getAttribute('class')),
  takenEdges: document.querySelectorAll('svg.graph line.edge.taken').length,
  bars: [...document.querySelectorAll('.timeline .bar')].map((b) => ({ node: b.getAttribute('data-node'), status: b.className.replace('bar ', ''), width: b.getBoundingClientRect().width })),
  conversations: [...document.querySelectorAll('details.conversation > summary')].map((s) => s.textContent),
  messages: document.querySelectorAll('.message').length,
  status: document.querySelector('section.run p.status')?.textContent ?? '',
}))()`;

describe('exported page', () => {
  it('loads from a file with the network off, draws the graph, timeline and messages, logs no error', async () => {
    const file = join(dir, 'graph-done.html');
    const store = openFileStore(dir);
    await writeFile(file, renderHtmlPage(pageData(await loadSession(store, 'graph-done'))));
    const page = await browser.newPage();
    const watch = await watchPage(browser, page);
    await browser.send(
      'Network.emulateNetworkConditions',
      { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 },
      page,
    );
    await load(browser, page, pathToFileURL(file).href);
    const drawn = await browser.evaluate<Drawn>(page, DRAWN);
    expect(watch.errors).toEqual([]);
    expect(watch.requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    expect(drawn.nodes).toEqual([
      'triage:node completed',
      'billing:node completed',
      'refund:node pending',
      'audit:node completed',
      'summary:node completed',
    ]);
    expect(drawn.takenEdges).toBe(4);
    expect(drawn.bars.map((b) => `${b.node}:${b.status}`)).toEqual([
      'triage:completed',
      'billing:completed',
      'audit:completed',
      'summary:completed',
    ]);
    expect(drawn.bars.every((b) => b.width >= 2)).toBe(true);
    expect(drawn.conversations).toContain('agent support.billing (4 messages)');
    expect(drawn.messages).toBeGreaterThanOrEqual(10);
    expect(drawn.status).toMatch(/^completed · 4 node executions · 75 tokens/);
    watch.stop();
  }, 60_000);

  it('shows a swarm with its turns and keeps stored text as text', async () => {
    const store = openFileStore(dir);
    const data = pageData(await loadSession(store, 'swarm-desk'));
    data.conversations.push({ title: '<img src=x onerror="window.__pwned=1">', nodeId: undefined, messages: [] });
    const file = join(dir, 'swarm.html');
    await writeFile(file, renderHtmlPage(data));
    const page = await browser.newPage();
    const watch = await watchPage(browser, page);
    await load(browser, page, pathToFileURL(file).href);
    const drawn = await browser.evaluate<Drawn>(page, DRAWN);
    expect(watch.errors).toEqual([]);
    expect(drawn.conversations.some((c) => c.startsWith('desk turn 1: billing'))).toBe(true);
    expect(drawn.conversations).toContain('<img src=x onerror="window.__pwned=1"> (0 messages)');
    // The handoff says what billing received after the nested-history filter, and every member is drawn.
    expect(
      await browser.evaluate<string>(
        page,
        `document.querySelector('ol.transitions li.kind-handoff .received')?.textContent ?? ''`,
      ),
    ).toBe(' (received 1 of 3 messages)');
    expect(drawn.nodes.map((n) => n.split(':')[0])).toEqual(['triage', 'billing', 'refund']);
    expect(await browser.evaluate<unknown>(page, 'window.__pwned ?? null')).toBeNull();
    watch.stop();
  }, 60_000);
});

describe('the step slider', () => {
  it('shows the graph, transitions and conversations as they were at the chosen step', async () => {
    const file = join(dir, 'graph-steps.html');
    await writeFile(file, renderHtmlPage(pageData(await loadSession(openFileStore(dir), 'graph-done'))));
    const page = await browser.newPage();
    const watch = await watchPage(browser, page);
    await load(browser, page, pathToFileURL(file).href);
    const moveTo = (index: string) =>
      browser.evaluate<string>(
        page,
        `(() => { const s = document.querySelector('.step-slider'); s.value = ${index}; s.dispatchEvent(new Event('input')); return document.querySelector('.step-label').textContent; })()`,
      );
    const transitions = `document.querySelectorAll('section.run ol.transitions li').length`;
    const all = await browser.evaluate<number>(page, transitions);
    expect(await moveTo("'1'")).toMatch(/^step 1 \(2 of \d+\) · executing · waiting billing, audit/);
    const atOne = await browser.evaluate<Drawn>(page, DRAWN);
    expect(atOne.nodes).toEqual([
      'triage:node completed',
      'billing:node waiting',
      'refund:node pending',
      'audit:node waiting',
      'summary:node pending',
    ]);
    expect(atOne.takenEdges).toBe(2);
    expect(await browser.evaluate<number>(page, transitions)).toBe(3);
    expect(atOne.conversations).toContain('agent support.triage (2 messages)');
    expect(atOne.conversations).toContain('agent support.billing (0 messages)');
    // Every section follows the slider: the run's line and the node table too.
    const section = `(() => ({ status: document.querySelector('section.run p.status').textContent,
      nodes: [...document.querySelectorAll('table.nodes tr')].slice(1).map((r) => r.children[0].textContent + ':' + r.children[1].textContent) }))()`;
    const atStepOne = await browser.evaluate<{ status: string; nodes: string[] }>(page, section);
    expect(atStepOne.status).toMatch(/^executing · 1 node executions · /);
    expect(atStepOne.nodes).toEqual(['audit:waiting', 'billing:waiting', 'triage:completed']);
    expect(await moveTo('document.querySelector(".step-slider").max')).toMatch(/· completed$/);
    const atLast = await browser.evaluate<{ status: string; nodes: string[] }>(page, section);
    expect(atLast.status).toMatch(/^completed · 4 node executions · 75 tokens/);
    expect(atLast.nodes).toEqual(['audit:completed', 'billing:completed', 'summary:completed', 'triage:completed']);
    const atEnd = await browser.evaluate<Drawn>(page, DRAWN);
    expect(atEnd.conversations).toContain('agent support.billing (4 messages)');
    expect(await browser.evaluate<number>(page, transitions)).toBe(all);
    expect(watch.errors).toEqual([]);
    watch.stop();
  }, 60_000);
});

/** The page's width at `width` px (the document's scroll width: more than `width` scrolls sideways). */
async function widthAt(page: string, width: number, url: string): Promise<number> {
  await browser.send(
    'Emulation.setDeviceMetricsOverride',
    { width, height: 800, deviceScaleFactor: 1, mobile: width < 600 },
    page,
  );
  await load(browser, page, url);
  return browser.evaluate<number>(page, 'document.documentElement.scrollWidth');
}

describe('a run that waited for a person', () => {
  it('draws the wait as a marked gap, so the work around it keeps its width; counts every call of the run', async () => {
    const file = join(dir, 'graph-budget.html');
    await writeFile(file, renderHtmlPage(pageData(await loadSession(openFileStore(dir), 'graph-budget'))));
    const page = await browser.newPage();
    const watch = await watchPage(browser, page);
    await load(browser, page, pathToFileURL(file).href);
    const drawn = await browser.evaluate<Drawn & { lane: number; waits: number; note: string }>(
      page,
      `(() => ({ ...${DRAWN}, lane: document.querySelector('.timeline .lane').getBoundingClientRect().width,
        waits: document.querySelectorAll('.timeline .wait').length, note: document.querySelector('.wait-note')?.textContent ?? '' }))()`,
    );
    expect(drawn.status).toMatch(/^completed · 3 node executions · 45 tokens/);
    expect(drawn.note).toMatch(/^Hatched: waited 1\.\d\d s for an answer \(asks for approval\), drawn short\.$/);
    expect(drawn.waits).toBe(2); // one mark per lane (triage, refund)
    // 1.5 s of waiting beside ~100 ms of work: without the gap the bars together would be a few % of the lane.
    const work = drawn.bars.reduce((n, b) => n + b.width, 0);
    expect(work / drawn.lane).toBeGreaterThan(0.5);
    expect(watch.errors).toEqual([]);
    watch.stop();
  }, 60_000);
});

describe('phones', () => {
  it('every page fits 390 px and 1280 px without sideways scrolling: exported runs and the served pages', async () => {
    const store = openFileStore(dir);
    const pages: string[] = [];
    for (const id of ['graph-done', 'graph-budget', 'swarm-desk', 'agent-solo']) {
      const file = join(dir, `${id}-width.html`);
      await writeFile(file, renderHtmlPage(pageData(await loadSession(store, id))));
      pages.push(pathToFileURL(file).href);
    }
    const server = await serveStore(openFileStore(dir), { pollMs: 60_000 });
    try {
      pages.push(server.url, `${server.url}session/graph-done/`);
      const page = await browser.newPage();
      const watch = await watchPage(browser, page);
      const widths: string[] = [];
      for (const url of pages)
        for (const width of [390, 1280])
          widths.push(
            `${url.slice(url.lastIndexOf('/', url.length - 2))} ${width}: ${await widthAt(page, width, url)}`,
          );
      expect(widths.filter((w) => Number(w.split(': ')[1]) > Number(w.split(' ').at(-2)?.replace(':', '')))).toEqual(
        [],
      );
      // The served index lists runs only: a server's own sessions are hidden.
      await widthAt(page, 390, server.url);
      expect(await browser.evaluate<string>(page, 'document.body.textContent')).not.toMatch(/skein-index|skein-server/);
      expect(watch.errors).toEqual([]);
      watch.stop();
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe("an evaluation's page", () => {
  it('shows the cases and scores, and links each run to its page, which draws the run', async () => {
    const storageDir = join(dir, 'eval-sessions');
    await evaluate({
      ...shop,
      target: (ctx) => shopAgent(ctx.sessionManager, ctx.evalCase.id === 'large-refund'),
      out: join(dir, 'eval'),
      sessions: { open: (sessionId) => new FileSessionManager({ sessionId, storageDir }), location: storageDir },
    });
    expect(await runCli(['eval', 'export', join(dir, 'eval'), '-o', join(dir, 'eval.html')], captureIo())).toBe(0);
    const page = await browser.newPage();
    const watch = await watchPage(browser, page);
    await load(browser, page, pathToFileURL(join(dir, 'eval.html')).href);
    const shown = await browser.evaluate<{ rows: string[]; link: string }>(
      page,
      `(() => ({
        rows: [...document.querySelectorAll('table.cases tr')].slice(1).map((r) => [...r.children].map((c) => c.textContent).join(' ')),
        link: document.querySelector('#case-large-refund a[href$=".html"]').href,
      }))()`,
    );
    expect(shown.rows).toEqual([
      'small-refund passed 1.00 1.00 1.00',
      'large-refund failed 0.00 0.00 0.00',
      'hello passed 1.00 - 1.00',
    ]);
    await load(browser, page, shown.link);
    const run = await browser.evaluate<Drawn>(page, DRAWN);
    // The broken shop answered without refunding: the customer's message and that answer.
    expect(run.conversations).toEqual(['agent default (2 messages)']);
    expect(run.messages).toBe(2);
    expect(watch.errors).toEqual([]);
    watch.stop();
  });
});

describe('live server', () => {
  it('shows a node that finishes after the page was opened', async () => {
    const live = await mkdtemp(join(tmpdir(), 'skein-inspector-live-'));
    const release = new AbortController();
    const sessionManager = new FileSessionManager({ sessionId: 'live', storageDir: live });
    // Billing answers only after the page is open: its first answer waits on `release`.
    const graph = supportGraph(sessionManager, { hangBilling: release });
    const running = graph.invoke('I was charged twice for order 42', { signal: release.signal }).catch(() => undefined);
    const server = await serveStore(openFileStore(live), { pollMs: 100 });
    try {
      const page = await browser.newPage();
      const watch = await watchPage(browser, page);
      for (let i = 0; i < 100; i++) {
        await load(browser, page, `${server.url}session/live/`);
        const drawn = await browser.evaluate<Drawn>(page, DRAWN);
        if (drawn.bars.some((b) => b.node === 'billing')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const before = await browser.evaluate<Drawn>(page, DRAWN);
      expect(before.bars.find((b) => b.node === 'billing')?.status).toBe('running');
      // Stop the hung run and resume it on the same session: billing and summary finish while the page is open.
      release.abort();
      await running;
      await sessionManager.close();
      await supportGraph(new FileSessionManager({ sessionId: 'live', storageDir: live })).invoke(
        'I was charged twice for order 42',
      );
      let after = before;
      for (let i = 0; i < 100 && !after.bars.some((b) => b.node === 'summary' && b.status === 'completed'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        after = await browser.evaluate<Drawn>(page, DRAWN);
      }
      expect(after.bars.some((b) => b.node === 'summary' && b.status === 'completed')).toBe(true);
      expect(after.status).toMatch(/^completed/);
      expect(
        Number(await browser.evaluate<string>(page, "document.body.getAttribute('data-updates')")),
      ).toBeGreaterThanOrEqual(1);
      expect(watch.errors).toEqual([]);
      watch.stop();
    } finally {
      await server.close();
      await rm(live, { recursive: true, force: true });
    }
  }, 90_000);
});
