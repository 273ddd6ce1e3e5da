import { describe, expect, it } from 'vitest';
import { passAtK } from './pass-at-k.js';

describe('pass@k', () => {
  it('1 - C(n-c, k) / C(n, k)', () => {
    expect(passAtK(4, 2, 2)).toBeCloseTo(1 - 1 / 6);
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3);
    expect(passAtK(10, 0, 5)).toBe(0);
    expect(passAtK(10, 8, 3)).toBe(1); // fewer failures than k: some sample of k passes
  });
  it('k of n or more: 1 when any run passed', () => {
    expect(passAtK(3, 1, 3)).toBe(1);
    expect(passAtK(3, 0, 5)).toBe(0);
    expect(passAtK(0, 0, 1)).toBe(0);
  });
});
