import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionManager } from '@skein/session-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureIo } from './test-support/capture-io.js';
import { supportGraph } from './test-support/fixtures.js';

let dir = '';
const fsm = (sessionId: string): FileSessionManager => new FileSessionManager({ sessionId, storageDir: dir });

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo();
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-inspector-steps-'));
  const sm = fsm('done');
  await supportGraph(sm).invoke('I was charged twice for order 42');
  await sm.close();
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('skein show --steps', () => {
  it('lists every kept step: its transitions and what was running, waiting and done', async () => {
    const { code, out } = await cli('show', dir, 'done', '--steps');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^support {2}\d+ step\(s\) kept in run\(s\) 1$/);
    expect(lines[1]).toMatch(/^ {2}step 0 {2}run 1 {2}executing +· → triage start .*waiting: triage/);
    expect(lines[2]).toMatch(
      /^ {2}step 1 .*triage → billing edge, triage → audit edge .*waiting: billing, audit {2}done: triage/,
    );
    expect(lines.at(-2)).toMatch(/completed .*summary → · complete .*done: triage, .*summary/);
  });

  it('prints the steps as JSON by orchestrator', async () => {
    const steps = JSON.parse((await cli('show', dir, 'done', '--steps', '--json')).out) as Record<
      string,
      { step: number; waiting: string[]; done: Record<string, string> }[]
    >;
    expect(Object.keys(steps)).toEqual(['support']);
    expect(steps['support']?.[1]).toMatchObject({
      step: 1,
      waiting: ['billing', 'audit'],
      done: { triage: 'completed' },
    });
  });
});

describe('skein fork', () => {
  it('forks a session at a step and prints what to run next; the fork continues from there', async () => {
    const { code, out } = await cli('fork', dir, 'done', '--step', '1', '--to', 'again');
    expect(code).toBe(0);
    expect(out).toContain('Forked graph support of session done at step 1 into session again');
    expect(out).toContain('Call graph.invoke(...): it continues from step 1');
    expect(out).toContain(`skein show ${dir} again --steps`);
    const shown = (await cli('show', dir, 'again', '--steps')).out;
    expect(shown).toContain('fork of session done at step 1');
    const result = await supportGraph(fsm('again')).invoke('continue');
    expect(result.status).toBe('completed');
    expect([...result.executionOrder].sort()).toEqual(['audit', 'billing', 'summary', 'triage']);
    expect(result.executionOrder[0]).toBe('triage');
  });

  it('refuses a missing step, a step not kept, and an existing session, writing nothing', async () => {
    const missing = await cli('fork', dir, 'done', '--to', 'x');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('see skein show <store> done --steps');
    // The command it suggests is the one it was run by: through the repository's npm script, that script.
    const io = { ...captureIo(), env: { npm_lifecycle_event: 'skein' } };
    expect(await runCli(['fork', dir, 'done', '--step', '1', '--to', 'again-npm'], io)).toBe(0);
    expect(io.out()).toContain(`See the fork: npm run skein -- show ${dir} again-npm --steps`);
    const notKept = await cli('fork', dir, 'done', '--step', '99', '--to', 'x');
    expect(notKept.code).toBe(1);
    expect(notKept.err).toContain('Step 99 of orchestrator support in session done is not kept');
    const taken = await cli('fork', dir, 'done', '--step', '1', '--to', 'done');
    expect(taken.code).toBe(1);
    expect((await cli('sessions', dir, '--json')).out).not.toContain('"x"');
  });
});
