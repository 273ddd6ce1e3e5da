import { describe, expect, it } from 'vitest';
import { FUZZ_CASE_COUNTS, FUZZ_CATEGORIES, fuzzCase, type FuzzCategory } from './fuzz-campaign.js';

// The bounded form of the bad-input fuzz: every case of each category once (seed n runs case n), the
// ids every third (102 pairs of id and place, ~0.1 s each); `npm run reliability -- --campaign fuzz`
// runs long seeded ones.
const STRIDE: Partial<Record<FuzzCategory, number>> = { ids: 3 };

describe.each(FUZZ_CATEGORIES)('bad-input fuzz: %s', (category) => {
  const seeds = Array.from(
    { length: Math.ceil(FUZZ_CASE_COUNTS[category] / (STRIDE[category] ?? 1)) },
    (_, i) => i * (STRIDE[category] ?? 1),
  );
  it.each(seeds)(
    'case %i: a named skein error or a working result, nothing written outside the root, nothing stored changed',
    async (seed) => {
      const report = await fuzzCase(category, seed);
      expect(
        report.violations,
        `${report.name} (${report.outcome}${report.error ? `: ${report.error}` : ''}); replay: npm run reliability -- --campaign fuzz --seed ${seed} --trials 1`,
      ).toEqual([]);
    },
  );
});
