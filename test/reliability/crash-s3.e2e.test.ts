import type { RgwServer } from '@skein/session-s3/testing';
import { rgwServer } from '../servers/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashTrial, type S3Store } from './crash-campaign.js';
import type { Shape } from './crash-shapes.js';
import { twoWriterTrial, type TwoWriterCase } from './two-writer-campaign.js';

// The bounded form of the crash and two-writer campaigns on S3SessionManager (the radosgw the tests start, one
// bucket, a prefix per trial); `npm run reliability -- --campaign crash --store s3` runs long ones.
let server: RgwServer;
let store: S3Store;

beforeAll(async () => {
  server = await rgwServer();
  store = { bucket: await server.createBucket('skein-crash'), clientConfig: server.clientConfig() };
}, 600_000);

afterAll(async () => {
  await server?.stop();
}, 120_000);

describe.each(['graph', 'swarm', 'agent'] as Shape[])('crash campaign on S3: %s', (shape) => {
  it.each([1])(
    `seed %i: killed at random moments, resumed, equals the uninterrupted run`,
    async (seed) => {
      const report = await crashTrial(shape, seed, store);
      expect(report.violations, `${report.kills} kill(s); replay: ${report.replay}`).toEqual([]);
    },
    120_000,
  );
});

describe.each(['race', 'sequential', 'busy', 'overlap'] as TwoWriterCase[])(
  'two-writer campaign on S3 (%s): two processes append to one session',
  (timing) => {
    it.each(timing === 'race' ? [1, 2] : [1])(
      'seed %i: exactly one goes on, the other gets SessionConflictError, only the winner is stored',
      async (seed) => {
        const report = await twoWriterTrial(seed, store, 'agent', timing);
        expect(report.violations, `${report.outcomes.join(', ')}; replay: ${report.replay}`).toEqual([]);
      },
      120_000,
    );
  },
);

describe.each(['race', 'sequential'] as TwoWriterCase[])(
  'two-writer campaign on S3 (%s): two orchestrator processes run one Swarm session',
  (timing) => {
    it.each([1])(
      'seed %i: exactly one swarm runs, the other gets SessionConflictError, one run is stored',
      async (seed) => {
        const report = await twoWriterTrial(seed, store, 'swarm', timing);
        expect(report.violations, `${report.outcomes.join(', ')}; replay: ${report.replay}`).toEqual([]);
      },
      120_000,
    );
  },
);
