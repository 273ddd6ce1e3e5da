import { describe, expect, it } from 'vitest';
import { PROVIDER_CAMPAIGNS } from './provider-campaign.js';

// The bounded form of the provider fault campaign (a fixed seed list per provider, a few seconds
// each); `npm run reliability -- --campaign provider` runs long ones.
const SEEDS: Record<string, number[]> = {
  anthropic: [1, 2, 3, 4, 5, 6, 7, 8],
  bedrock: [1, 2, 3, 4, 5, 6, 7, 8],
  openai: [1, 2, 3, 4, 5, 6, 7, 8],
};

describe.each(Object.keys(SEEDS))(
  'provider fault campaign: Agent + %s model (the real SDK) through its loopback wire server',
  (name) => {
    const campaign = PROVIDER_CAMPAIGNS[name]!;
    it.each(SEEDS[name]!)(
      'seed %i: seeded faults between good answers leave a valid history and a working agent',
      async (seed) => {
        const report = await campaign.trial(seed);
        expect(
          report.violations,
          `faults: ${report.faults.join(', ')}; ${report.outcome}; replay: ${report.replay}`,
        ).toEqual([]);
      },
    );
  },
);
