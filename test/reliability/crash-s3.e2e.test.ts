import type { RgwServer } from '@skein/session-s3/testing';
import { rgwServer } from '../servers/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashTrial, type S3Store } from './crash-campaign.js';
import type { Shape } from './crash-shapes.js';
import { twoWriterTrial } from './two-writer-campaign.js';

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

describe('two-writer campaign on S3: two processes append to one session at once', () => {
  it.each([1, 2])(
    'seed %i: exactly one goes on, the other gets SessionConflictError, only the winner is stored',
    async (seed) => {
      const report = await twoWriterTrial(seed, store);
      expect(report.violations, `${report.outcomes.join(', ')}; replay: ${report.replay}`).toEqual([]);
    },
    60_000,
  );
});

describe('two-writer campaign on S3: two orchestrator processes run one Swarm session at once', () => {
  it.each([1])(
    'seed %i: exactly one swarm runs, the other gets SessionConflictError, one run is stored',
    async (seed) => {
      const report = await twoWriterTrial(seed, store, 'swarm');
      expect(report.violations, `${report.outcomes.join(', ')}; replay: ${report.replay}`).toEqual([]);
    },
    60_000,
  );
});
