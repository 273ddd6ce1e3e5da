import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { compareSummaries, evaluate, formatSummary, parseCaseLines } from '@skein/evals';
import { FileSessionRepository } from '@skein/session-file';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDesk } from '../src/test-support/desk-run.js';
import { scriptedDeskModel } from '../src/scripted-desk.js';
import { DESK_CASES, deskEvaluation } from './desk-eval.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-eval-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const OFFLINE = { OPENAI_BASE_URL: '', OPENAI_API_KEY: '' };
const deskEval = (args: string[], options: { killWhen?: RegExp } = {}) =>
  runDesk(args, { entry: 'eval', env: { ...OFFLINE, INIT_CWD: dir }, ...options });

/** The ids of the desk's cases, and of those tagged `refund`. */
async function deskCases(): Promise<{ all: string[]; refund: string[] }> {
  const sources = parseCaseLines(await readFile(DESK_CASES, 'utf8'), 'cases.jsonl');
  const cases = sources.map((s) => s.value as { id: string; tags: string[]; metadata: { shape: string } });
  return { all: cases.map((c) => c.id), refund: cases.filter((c) => c.tags.includes('refund')).map((c) => c.id) };
}

const resultLines = async (file: string): Promise<{ type: string; caseId: string; attempt: number }[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; caseId: string; attempt: number });

describe('the desk eval set', () => {
  it('has at least 30 cases across the three shapes: billing, refunds under and over the limit (approved and denied), other, multi-turn', async () => {
    const sources = parseCaseLines(await readFile(DESK_CASES, 'utf8'), 'cases.jsonl');
    const tags = sources.map((s) => (s.value as { tags: string[] }).tags);
    expect(sources.length).toBeGreaterThanOrEqual(30);
    for (const shape of ['graph', 'swarm', 'agent'])
      for (const kind of ['billing', 'refund', 'approved', 'denied', 'other', 'multi-turn'])
        expect(
          tags.some((t) => t.includes(shape) && t.includes(kind)),
          `${shape} ${kind}`,
        ).toBe(true);
  });

  it('npm run desk:eval runs every case on scripted models, prints the summary, writes the results and exits 0', async () => {
    const run = await deskEval([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('[model] scripted models');
    const { all } = await deskCases();
    expect(run.stdout).toContain(`evaluation desk: ${all.length} cases, ${all.length} runs: all passed`);
    // One line per case, in the order of the case file (runs finish in any order).
    expect([...run.stdout.matchAll(/^ {2}ok {3}(\S+)$/gm)].map((m) => m[1])).toEqual(all);
    expect(run.stdout).toContain('pages: npm run skein -- eval export .desk/evals/desk -o eval.html');
    const out = join(dir, '.desk', 'evals', 'desk');
    const results = (await resultLines(join(out, 'results.jsonl'))).filter((l) => l.type === 'result');
    expect(results.map((r) => r.caseId).sort()).toEqual([...all].sort());
    expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))).toMatchObject({ passed: true });
    // Every run is stored in its own session, where the inspector reads its timeline.
    const sessions = await readdir(join(out, 'sessions'));
    expect(sessions).toHaveLength(all.length);
    const repository = new FileSessionRepository({ storageDir: join(out, 'sessions') });
    const stored = await repository.readTransitions('desk.swarm-refund-over-limit-denied.r0', 'desk-swarm');
    expect(stored.map((t) => `${t.from ?? ''}>${t.to ?? ''}:${t.kind}`)).toEqual([
      '>triage:start',
      'triage>refund:handoff',
      'refund>:interrupt',
      '>refund:resume',
      'refund>:complete',
    ]);
  });

  it('a killed evaluation resumes where it stopped: finished runs are kept, the rest run', async () => {
    const killed = await deskEval(['--concurrency', '1'], { killWhen: /(ok {3}\S+\n[^]*){5}/ });
    expect(killed.signal).toBe('SIGKILL');
    const file = join(dir, '.desk', 'evals', 'desk', 'results.jsonl');
    const before = (await resultLines(file)).filter((l) => l.type === 'result').map((l) => l.caseId);
    expect(before.length).toBeGreaterThanOrEqual(5);
    const resumed = await deskEval(['--resume', '--concurrency', '2']);
    expect(resumed.code).toBe(0);
    const ran = [...resumed.stdout.matchAll(/^ {2}ok {3}(\S+)$/gm)].map((m) => m[1]);
    const { all } = await deskCases();
    expect(ran.sort()).toEqual(all.filter((id) => !before.includes(id)).sort());
    expect(resumed.stdout).toContain(`${all.length} cases, ${all.length} runs: all passed`);
  });

  it('a planted routing bug (triage sends refunds to billing): the comparison flags exactly the cases it breaks', async () => {
    const base = await evaluate(
      deskEvaluation({ out: join(dir, 'base'), modelFor: (role) => scriptedDeskModel(role) }),
    );
    const misrouted = (role: Parameters<typeof scriptedDeskModel>[0]) =>
      scriptedDeskModel(role, { route: (topic) => (topic === 'refund' ? 'billing' : topic) });
    const next = await evaluate(deskEvaluation({ out: join(dir, 'next'), modelFor: misrouted }));
    const comparison = compareSummaries(base.summary, next.summary);
    const { refund } = await deskCases();
    expect(base.summary.passed).toBe(true);
    expect(comparison.regressions.map((r) => r.id).sort()).toEqual([...refund].sort());
    expect(comparison.improvements).toEqual([]);
    expect(comparison.failed).toBe(true);
    expect(comparison.scorers.find((s) => s.name === 'trajectory')?.dropped).toBe(true);
    const graphRefund = comparison.regressions.find((r) => r.id === 'graph-refund-under-limit');
    expect(graphRefund?.scores.find((s) => s.name === 'trajectory')?.reason).toBe(
      'ran triage > billing > notes > summary; expected exactly triage > refund > notes > summary [exact]',
    );
    // The command the summary prints for a case that failed (as npm run desk:eval prints it) runs and shows that run.
    const printed = formatSummary(next.summary, { showCommand: 'npm run skein --' });
    const hint = /\((npm run skein -- show \S+ desk\.graph-refund-under-limit\.r0)\)/.exec(printed)?.[1] ?? '';
    expect(hint).not.toBe('');
    const shown = await promisify(execFile)('bash', ['-c', hint], {
      cwd: fileURLToPath(new URL('../../../', import.meta.url)),
    });
    expect(shown.stdout).toMatch(/graph desk-graph {2}completed .*\n {2}task: Please refund order 7/);
  });
});
