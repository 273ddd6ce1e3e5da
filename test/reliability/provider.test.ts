import { describe, expect, it } from 'vitest';
import { providerTrial } from './provider-campaign.js';

// The bounded form of the provider fault campaign (a fixed seed list); `npm run reliability` runs long ones.
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

describe('provider fault campaign: Agent + AnthropicModel through the loopback wire server', () => {
  it.each(SEEDS)('seed %i: seeded faults between good answers leave a valid history and a working agent', async (seed) => {
    const report = await providerTrial(seed);
    expect(report.violations, `faults: ${report.faults.join(', ')}; ${report.outcome}; replay: ${report.replay}`).toEqual([]);
  });
});
