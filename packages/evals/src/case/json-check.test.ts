import { describe, expect, it } from 'vitest';
import { isJson } from './json-check.js';

describe('isJson', () => {
  it('JSON values pass; functions, undefined, NaN, class instances and very deep values do not', () => {
    expect([null, 'a', 1, true, [1, { a: [null] }], { b: { c: 'd' } }].every((v) => isJson(v))).toBe(true);
    expect([undefined, () => 1, Number.NaN, new Date(), { a: undefined }, [Symbol('x')]].some((v) => isJson(v))).toBe(
      false,
    );
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = [deep];
    expect(isJson(deep)).toBe(false);
  });
});
