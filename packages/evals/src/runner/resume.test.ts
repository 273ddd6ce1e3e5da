import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionManager, FileSessionRepository } from '@skein/session-file';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaseInput } from '../case/eval-case.js';
import { EvalResultsError } from '../errors.js';
import { loadResults } from '../report/load-results.js';
import { trajectory } from '../scorers/trajectory.js';
import { evaluate } from './evaluate.js';
import type { EvaluateOptions } from './evaluate-options.js';
import { shopGraph } from '../test-support/targets.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-evals-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cases: CaseInput[] = Array.from({ length: 5 }, (_, i) => ({
  id: `c${i}`,
  input: 'I was charged twice for order 42',
  expect: { trajectory: { nodes: ['triage', 'billing'] } },
}));

/** An evaluation into `<dir>/out` that counts the targets it builds. */
function counted(extra: Partial<EvaluateOptions> = {}): { options: EvaluateOptions; built: string[] } {
  const built: string[] = [];
  const options: EvaluateOptions = {
    name: 'desk',
    target: (ctx) => {
      built.push(ctx.sessionId);
      return shopGraph(ctx.sessionManager);
    },
    cases,
    scorers: [trajectory()],
    out: join(dir, 'out'),
    concurrency: 1,
    ...extra,
  };
  return { options, built };
}

describe('evaluate: resume', () => {
  it('a stopped evaluation resumes where it stopped: finished runs are kept, the rest run once', async () => {
    const controller = new AbortController();
    let finished = 0;
    const first = counted({ signal: controller.signal, onResult: () => ++finished === 2 && controller.abort() });
    const stopped = await evaluate(first.options);
    expect(first.built).toEqual(['desk.c0.r0', 'desk.c1.r0']);
    expect(stopped.summary.counts).toMatchObject({ runs: 2, notRun: 3 });

    const second = counted();
    const resumed = await evaluate(second.options);
    expect(second.built).toEqual(['desk.c2.r0', 'desk.c3.r0', 'desk.c4.r0']);
    expect(resumed.summary).toMatchObject({ passed: true, counts: { runs: 5, passed: 5 } });
    const stored = await loadResults(join(dir, 'out'));
    expect(stored.summary).toEqual(resumed.summary);
    expect(JSON.parse(await readFile(join(dir, 'out', 'summary.json'), 'utf8'))).toMatchObject({ counts: { runs: 5 } });
  });

  it('a run cut midway (a kill) runs again from its start, in a new session; a half-written line is dropped', async () => {
    await evaluate(counted({ cases: cases.slice(0, 2) }).options);
    const file = join(dir, 'out', 'results.jsonl');
    // What a kill leaves: the start of c2's run, then half of a line.
    await appendFile(
      file,
      `${JSON.stringify({ type: 'start', caseId: 'c2', repeat: 0, attempt: 1, sessionId: 'desk.c2.r0', at: '' })}\n{"type":"resu`,
    );
    const again = counted({ cases: cases.slice(0, 3) });
    const report = await evaluate(again.options);
    expect(again.built).toEqual(['desk.c2.r0.a2']);
    expect(report.results.map((r) => [r.caseId, r.attempt, r.run.sessionId])).toEqual([
      ['c0', 1, 'desk.c0.r0'],
      ['c1', 1, 'desk.c1.r0'],
      ['c2', 2, 'desk.c2.r0.a2'],
    ]);
    expect((await readFile(file, 'utf8')).includes('{"type":"resu\n')).toBe(false);
  });

  it('a changed case runs again (in a new session: the old one holds the old run); unchanged ones are kept', async () => {
    await evaluate(counted({ cases: cases.slice(0, 2) }).options);
    const changed = [cases[0] as CaseInput, { ...(cases[1] as CaseInput), tags: ['new'] }];
    const again = counted({ cases: changed });
    await evaluate(again.options);
    expect(again.built).toEqual(['desk.c1.r0.a2']);
  });

  it('resume: false starts over in new sessions (an old one holds the old run); another evaluation is refused', async () => {
    await evaluate(counted({ cases: cases.slice(0, 1) }).options);
    const over = counted({ cases: cases.slice(0, 2), resume: false });
    const report = await evaluate(over.options);
    expect(over.built).toEqual(['desk.c0.r0.a2', 'desk.c1.r0']);
    expect(report.summary.counts.runs).toBe(2);
    expect((await loadResults(join(dir, 'out'))).results.map((r) => r.run.sessionId)).toEqual([
      'desk.c0.r0.a2',
      'desk.c1.r0',
    ]);
    const other = counted({ name: 'other' });
    await expect(evaluate(other.options)).rejects.toThrow(EvalResultsError);
    await expect(evaluate(other.options)).rejects.toThrow(/holds the results of evaluation "desk", not "other"/);
  });

  it('the budget covers the evaluation across resumes: what finished runs spent counts', async () => {
    // A billing run makes 3 model calls.
    const first = await evaluate(counted({ budget: { modelCalls: 6 } }).options);
    expect(first.summary.counts.runs).toBe(2);
    const same = counted({ budget: { modelCalls: 6 } });
    await evaluate(same.options);
    expect(same.built).toEqual([]);
    const larger = counted({ budget: { modelCalls: 12 } });
    const report = await evaluate(larger.options);
    expect(larger.built).toEqual(['desk.c2.r0', 'desk.c3.r0']);
    expect(report.summary.counts).toMatchObject({ runs: 4, notRun: 1 });
  });

  it('every run is stored in its own session, which the results name with the store', async () => {
    const storageDir = join(dir, 'sessions');
    const report = await evaluate(
      counted({
        cases: cases.slice(0, 2),
        sessions: { open: (sessionId) => new FileSessionManager({ sessionId, storageDir }), location: storageDir },
      }).options,
    );
    expect(report.summary.store).toBe(storageDir);
    const repository = new FileSessionRepository({ storageDir });
    const kinds = await repository.readTransitions('desk.c1.r0', 'graph');
    expect(kinds.map((t) => `${t.from ?? ''}>${t.to ?? ''}:${t.kind}`)).toEqual([
      '>triage:start',
      'triage>billing:edge',
      'billing>:complete',
    ]);
    expect(report.summary.cases.map((c) => c.sessionIds)).toEqual([['desk.c0.r0'], ['desk.c1.r0']]);
    // Once the evaluation returned, a run's session is one like any other: another writer goes on with it.
    const next = new FileSessionManager({ sessionId: 'desk.c1.r0', storageDir });
    const again = await shopGraph(next).invoke('I want a refund for order 7');
    await next.close();
    expect(again.executionOrder).toEqual(['triage', 'refund']);
  });
});
