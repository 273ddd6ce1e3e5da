import { describe, expect, it } from 'vitest';
import { twoWriterTrial, type TwoWriterCase } from './two-writer-campaign.js';

// The bounded form of the two-writer campaigns on files (S3: crash-s3.e2e.test.ts); `npm run reliability` runs long ones.
// Cases: both at once (race), one after the other (sequential), at once beside a CPU-bound process (busy), and the
// second loading while the first holds the session (overlap).
const SEEDS: Record<TwoWriterCase, number[]> = { race: [1, 2, 3], sequential: [1, 2], busy: [1], overlap: [1, 2] };

describe.each(Object.keys(SEEDS) as TwoWriterCase[])(
  'two-writer campaign (%s): two processes append to one file session',
  (timing) => {
    it.each(SEEDS[timing])(
      'seed %i: exactly one goes on, the other gets SessionConflictError, only the winner is stored',
      async (seed) => {
        const report = await twoWriterTrial(seed, undefined, 'agent', timing);
        expect(report.violations, `${report.outcomes.join(', ')}; replay: ${report.replay}`).toEqual([]);
      },
      120_000,
    );
  },
);

describe.each(['race', 'sequential', 'busy', 'overlap'] as TwoWriterCase[])(
  'two-writer campaign (%s): two orchestrator processes run one Swarm session',
  (timing) => {
    it.each([1])(
      'seed %i: exactly one swarm runs, the other gets SessionConflictError, one run is stored',
      async (seed) => {
        const report = await twoWriterTrial(seed, undefined, 'swarm', timing);
        expect(report.violations, `${report.outcomes.join(', ')}; replay: ${report.replay}`).toEqual([]);
      },
      120_000,
    );
  },
);
