import { describe, expect, it } from 'vitest';
import { jsonDeeperThan } from '../index.js';

describe('jsonDeeperThan', () => {
  it('counts objects and arrays inside one another, not side by side', () => {
    expect(jsonDeeperThan('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(jsonDeeperThan('{"a":[1,{"b":2}]}', 2)).toBe(true);
    expect(jsonDeeperThan('[[],[],[],[]]', 2)).toBe(false);
    expect(jsonDeeperThan('"no nesting"', 0)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(jsonDeeperThan('{"a":"\\"[[[[\\""}', 1)).toBe(false);
    expect(jsonDeeperThan('{"a":"\\\\","b":[[1]]}', 2)).toBe(true);
  });

  it('finds a body nested thousands deep without recursion', () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    expect(jsonDeeperThan(deep, 64)).toBe(true);
    expect(jsonDeeperThan(deep, 100_000)).toBe(false);
  });
});
