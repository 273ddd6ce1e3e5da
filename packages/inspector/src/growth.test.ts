import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession, openFileStore, pageData, renderHtmlPage } from './index.js';
import { writeLargeSession } from './test-support/large-session.js';

describe('export size', () => {
  it('grows linearly with the number of messages', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-inspector-growth-'));
    await writeLargeSession(dir, 'small', 400);
    await writeLargeSession(dir, 'large', 4_000);
    const store = openFileStore(dir);
    const size = async (id: string): Promise<number> => renderHtmlPage(pageData(await loadSession(store, id))).length;
    const base = renderHtmlPage(pageData(await loadSession(store, 'missing'))).length;
    const [small, large] = [(await size('small')) - base, (await size('large')) - base];
    const ratio = large / small;
    expect(ratio).toBeGreaterThan(9);
    expect(ratio).toBeLessThan(11.5);
    await rm(dir, { recursive: true, force: true });
  }, 60_000);
});
