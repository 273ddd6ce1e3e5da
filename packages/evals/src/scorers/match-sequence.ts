/** Compares what ran with what was expected, as a score in [0, 1] and a reason (pure). */
import type { MatchMode } from '../case/eval-case.js';
import type { ScoreResult } from './scorer.js';

/** Length of the longest common subsequence of `a` and `b`. */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const row = [0];
    for (let j = 0; j < b.length; j++)
      row.push(x === b[j] ? (previous[j] ?? 0) + 1 : Math.max(previous[j + 1] ?? 0, row[j] ?? 0));
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** How many of `items` find a partner in `pool` (each partner used once). */
export function multisetOverlap(items: readonly string[], pool: readonly string[]): number {
  const left = new Map<string, number>();
  for (const p of pool) left.set(p, (left.get(p) ?? 0) + 1);
  let found = 0;
  for (const item of items) {
    const n = left.get(item) ?? 0;
    if (n > 0) {
      found++;
      left.set(item, n - 1);
    }
  }
  return found;
}

const shown = (xs: readonly string[]): string => (xs.length === 0 ? '(nothing)' : xs.join(' > '));
const missing = (items: readonly string[], pool: readonly string[]): string[] => {
  const left = [...pool];
  return items.filter((x) => {
    const i = left.indexOf(x);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
};

/**
 * `exact`: the same list (1 or 0). `inOrder`: the expected items appear in this order, others may run
 * between them (the longest matched part / expected). `anyOrder`: the same items in any order
 * (overlap / the longer list). `subset`: nothing ran outside the expected items (ran and expected /
 * ran). `superset`: every expected item ran, in any order (found / expected).
 */
export function matchSequence(
  what: string,
  actual: readonly string[],
  expected: readonly string[],
  mode: MatchMode,
): ScoreResult {
  const ran = `${what} ${shown(actual)}`;
  switch (mode) {
    case 'exact': {
      const same = actual.length === expected.length && actual.every((x, i) => x === expected[i]);
      return {
        score: same ? 1 : 0,
        reason: same ? `${ran}, as expected` : `${ran}; expected exactly ${shown(expected)}`,
      };
    }
    case 'inOrder': {
      const n = lcsLength(actual, expected);
      const score = expected.length === 0 ? 1 : n / expected.length;
      return {
        score,
        reason:
          score === 1
            ? `${ran}: ${shown(expected)} in order`
            : `${ran}; expected ${shown(expected)} in this order (${n} of ${expected.length} in order)`,
      };
    }
    case 'anyOrder': {
      const longer = Math.max(actual.length, expected.length);
      const score = longer === 0 ? 1 : multisetOverlap(actual, expected) / longer;
      return {
        score,
        reason:
          score === 1
            ? `${ran}: the expected ones in some order`
            : `${ran}; expected ${shown(expected)} in any order${describeDiff(actual, expected)}`,
      };
    }
    case 'subset': {
      const extra = missing(actual, expected);
      const score = actual.length === 0 ? 1 : (actual.length - extra.length) / actual.length;
      return {
        score,
        reason:
          extra.length === 0
            ? `${ran}: nothing outside ${shown(expected)}`
            : `${ran}; not expected: ${extra.join(', ')}`,
      };
    }
    case 'superset': {
      const absent = missing(expected, actual);
      const score = expected.length === 0 ? 1 : (expected.length - absent.length) / expected.length;
      return {
        score,
        reason:
          absent.length === 0 ? `${ran}: includes ${shown(expected)}` : `${ran}; did not run: ${absent.join(', ')}`,
      };
    }
  }
}

function describeDiff(actual: readonly string[], expected: readonly string[]): string {
  const absent = missing(expected, actual);
  const extra = missing(actual, expected);
  return `${absent.length ? `; missing ${absent.join(', ')}` : ''}${extra.length ? `; extra ${extra.join(', ')}` : ''}`;
}
