import { describe, expect, it } from 'vitest';
import { crashTrial } from './crash-campaign.js';
import type { Shape } from './crash-shapes.js';

// The bounded form of the crash campaigns (a fixed seed list: seed 1 has a budget stop in every shape,
// seed 2 kills only); `npm run reliability` runs long ones.
const SEEDS = [1, 2];

describe.each(['graph', 'swarm', 'agent'] as Shape[])('crash campaign: %s', (shape) => {
  it.each(SEEDS)(
    `seed %i: killed at random moments, resumed, equals the uninterrupted run`,
    async (seed) => {
      const report = await crashTrial(shape, seed);
      expect(
        report.violations,
        `${report.kills} kill(s), ${report.budgetStops} budget stop(s); replay: ${report.replay}`,
      ).toEqual([]);
    },
    60_000,
  );
});
