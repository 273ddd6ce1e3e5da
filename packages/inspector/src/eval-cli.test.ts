import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluate } from '@skein/evals';
import { FileSessionManager } from '@skein/session-file';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureIo } from './test-support/capture-io.js';
import shop, { shopAgent } from './test-support/eval-fixture.js';

const fixture = fileURLToPath(new URL('./test-support/eval-fixture.ts', import.meta.url));
let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-eval-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ cwd: dir });
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe('skein eval', () => {
  it('run: runs the evaluation a module exports, prints each run and the summary, exits 0 when every case passes', async () => {
    const { code, out } = await cli('eval', 'run', fixture, '--out', 'base');
    expect(code).toBe(0);
    expect(out).toContain('  ok   small-refund\n');
    expect(out).toContain('evaluation shop: 3 cases, 3 runs: all passed');
    expect(out).toContain(`results: ${join(dir, 'base', 'results.jsonl')}`);
  });

  it('run: a failing case exits 1; with --baseline the exit says whether a scorer dropped', async () => {
    expect((await cli('eval', 'run', fixture, '--out', 'base')).code).toBe(0);
    const failing = await cli('eval', 'run', fixture, 'broken', '--out', 'next');
    expect(failing.code).toBe(1);
    expect(failing.out).toContain('  FAIL large-refund');
    expect(failing.out).toContain('      toolCalls 0.00: refund was not called (called no tools)');
    const gated = await cli('eval', 'run', fixture, '--out', 'again', '--baseline', 'base');
    expect(gated.code).toBe(0);
    expect(gated.out).toContain("ok: no scorer's mean dropped more than 0");
  });

  it('compare: regressions case by case, exit 1 when a scorer mean dropped more than the threshold', async () => {
    await cli('eval', 'run', fixture, '--out', 'base');
    await cli('eval', 'run', fixture, 'broken', '--out', 'next');
    const { code, out } = await cli('eval', 'compare', 'base', join('next', 'results.jsonl'));
    expect(code).toBe(1);
    expect(out).toContain('regressions (2):\n  small-refund: passed -> failed');
    expect(out).toContain('  large-refund: passed -> failed');
    expect(out).not.toContain('hello:');
    expect(out).toMatch(/toolCalls +1\.00 -> 0\.33 +-0\.67 +DROPPED/);
    expect((await cli('eval', 'compare', 'base', 'next', '--threshold', '0.9')).code).toBe(0);
    const json = JSON.parse((await cli('eval', 'compare', 'base', 'next', '--json')).out) as {
      regressions: { id: string }[];
    };
    expect(json.regressions.map((r) => r.id)).toEqual(['small-refund', 'large-refund']);
  });

  it('show: the summary of stored results', async () => {
    await cli('eval', 'run', fixture, 'broken', '--out', 'next');
    const { code, out } = await cli('eval', 'show', 'next');
    expect(code).toBe(0);
    expect(out).toContain('evaluation shop: 3 cases, 3 runs: NOT all passed');
    expect(JSON.parse((await cli('eval', 'show', 'next', '--json')).out)).toMatchObject({
      counts: { failed: 2, passed: 1 },
    });
  });

  it("export: the evaluation's page, with each run's page beside it and linked", async () => {
    const storageDir = join(dir, 'sessions');
    await evaluate({
      ...shop,
      target: (ctx) => shopAgent(ctx.sessionManager, ctx.evalCase.id === 'large-refund'),
      out: join(dir, 'stored'),
      sessions: { open: (sessionId) => new FileSessionManager({ sessionId, storageDir }), location: storageDir },
    });
    const { code, out } = await cli('eval', 'export', 'stored', '-o', 'eval.html');
    expect(code).toBe(0);
    expect(out).toBe(`Wrote ${join(dir, 'eval.html')} and 3 run pages\n`);
    const html = await readFile(join(dir, 'eval.html'), 'utf8');
    expect(html).toContain('<h1>Evaluation shop: <span class="status failed">not all passed</span></h1>');
    expect(html).toContain('<a href="eval.runs/shop.large-refund.r0.html">shop.large-refund.r0</a>');
    expect(html).toContain('<b>toolCalls 0.00</b> refund was not called (called no tools)');
    expect(html).toContain('<div class="said">Refund order 8, 60 EUR</div>');
    expect((await readdir(join(dir, 'eval.runs'))).sort()).toEqual([
      'shop.hello.r0.html',
      'shop.large-refund.r0.html',
      'shop.small-refund.r0.html',
    ]);
    const runPage = await readFile(join(dir, 'eval.runs', 'shop.small-refund.r0.html'), 'utf8');
    expect(runPage).toContain('Refund order 7, 12 EUR');
  });

  it('stored text is escaped; usage errors exit 2', async () => {
    await evaluate({ ...shop, cases: [{ id: 'x', input: '<script>alert(1)</script> order 1' }], out: join(dir, 'x') });
    await cli('eval', 'export', 'x', '-o', 'x.html');
    const html = await readFile(join(dir, 'x.html'), 'utf8');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect((await cli('eval', 'frobnicate')).code).toBe(2);
    expect((await cli('eval', 'run', fixture, 'nothing')).err).toContain('has no evaluation named "nothing"');
    expect((await cli('eval', 'show', 'missing')).err).toMatch(/does not exist or is empty; run the evaluation first/);
  });
});
