import { describe, expect, it } from 'vitest';
import { caseRun, evalCase } from '../testing/index.js';
import { scoreTrajectory, trajectory } from './trajectory.js';

const run = caseRun({
  nodes: ['triage', 'refund'],
  handoffs: [{ from: 'triage', to: 'refund' }],
});

describe('trajectory scorer', () => {
  it('scores nodes and handoffs; the worse of the two counts', () => {
    expect(scoreTrajectory(run, { nodes: ['triage', 'refund'], handoffs: ['triage>refund'] }, 'exact')).toEqual({
      score: 1,
      reason: 'ran triage > refund, as expected; handoffs triage>refund, as expected [exact]',
    });
    const wrong = scoreTrajectory(run, { nodes: ['triage', 'refund'], handoffs: ['triage>billing'] }, 'exact');
    expect(wrong.score).toBe(0);
    expect(wrong.reason).toContain('handoffs triage>refund; expected exactly triage>billing');
  });

  it("uses the case's match mode, else the scorer's", () => {
    expect(scoreTrajectory(run, { nodes: ['refund'], match: 'superset' }, 'exact').score).toBe(1);
    expect(scoreTrajectory(run, { nodes: ['refund'] }, 'superset').score).toBe(1);
    expect(scoreTrajectory(run, { nodes: ['refund'] }, 'exact').score).toBe(0);
  });

  it('skips cases without a trajectory expectation', async () => {
    const s = trajectory();
    expect(await s.score(run, evalCase(), { signal: undefined })).toBeUndefined();
    expect(
      await s.score(run, evalCase({ expect: { trajectory: { nodes: ['triage', 'refund'] } } }), { signal: undefined }),
    ).toMatchObject({ score: 1 });
    expect(s.expects).toBe('trajectory');
  });
});
