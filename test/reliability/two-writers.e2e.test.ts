import { describe, expect, it } from 'vitest';
import { twoWriterTrial } from './two-writer-campaign.js';

// The bounded form of the two-writer campaign on files (S3: crash-s3.test.ts); `npm run reliability` runs long ones.
describe('two-writer campaign: two processes append to one file session at once', () => {
  it.each([1, 2, 3])(
    'seed %i: exactly one goes on, the other gets SessionConflictError, only the winner is stored',
    async (seed) => {
      const report = await twoWriterTrial(seed);
      expect(report.violations, `${report.outcomes.join(', ')}; replay: ${report.replay}`).toEqual([]);
    },
    60_000,
  );
});

describe('two-writer campaign: two orchestrator processes run one Swarm session at once', () => {
  it.each([1, 2])(
    'seed %i: exactly one swarm runs, the other gets SessionConflictError, one run is stored',
    async (seed) => {
      const report = await twoWriterTrial(seed, undefined, 'swarm');
      expect(report.violations, `${report.outcomes.join(', ')}; replay: ${report.replay}`).toEqual([]);
    },
    60_000,
  );
});
