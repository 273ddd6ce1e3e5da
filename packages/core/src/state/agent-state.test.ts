import { describe, expect, it } from 'vitest';
import { Agent } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

describe('agent state', () => {
  const agent = (): Agent =>
    new Agent({ model: new ScriptedModel([]), state: { user_preferences: { theme: 'dark' }, session_count: 0 } });

  it('gets, sets and deletes as the seeds show', () => {
    const a = agent();
    expect(a.state.get('user_preferences')).toEqual({ theme: 'dark' });
    a.state.set('last_action', 'login');
    a.state.set('session_count', 1);
    expect(a.state.get()).toEqual({ user_preferences: { theme: 'dark' }, session_count: 1, last_action: 'login' });
    a.state.delete('last_action');
    expect(a.state.get()).toEqual({ user_preferences: { theme: 'dark' }, session_count: 1 });
  });

  it('accepts every JSON type', () => {
    const a = agent();
    for (const [k, v] of Object.entries({ s: 'hello', n: 42, b: true, l: [1, 2, 3], d: { nested: 'data' }, z: null }))
      a.state.set(k, v);
    expect(a.state.get('z')).toBeNull();
    expect(a.state.get('l')).toEqual([1, 2, 3]);
  });

  it('refuses anything that is not JSON with a TypeError naming the type', () => {
    const a = agent();
    expect(() => a.state.set('function', (x: number) => x)).toThrow(
      new TypeError(
        'Value is not JSON serializable: function. Only JSON-compatible types (string, number, boolean, null, array, object) are allowed.',
      ),
    );
    expect(() => a.state.set('d', new Date())).toThrow(/not JSON serializable: Date/);
    expect(() => a.state.set('m', { inner: new Map() })).toThrow(/Map/);
    expect(() => a.state.set('u', undefined)).toThrow(/undefined/);
    expect(() => a.state.set('nan', Number.NaN)).toThrow(/NaN/);
    expect(() => a.state.set('big', 1n)).toThrow(/bigint/);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => a.state.set('c', cyclic)).toThrow(/circular/);
    expect(a.state.get()).toEqual({ user_preferences: { theme: 'dark' }, session_count: 0 });
    expect(() => new Agent({ model: new ScriptedModel([]), state: { f: (() => 1) as never } })).toThrow(TypeError);
  });

  it('copies values on set and on get', () => {
    const a = agent();
    const value = { list: [1] };
    a.state.set('v', value);
    value.list.push(2);
    expect(a.state.get('v')).toEqual({ list: [1] });
    (a.state.get('v') as { list: number[] }).list.push(3);
    expect(a.state.get('v')).toEqual({ list: [1] });
    const all = a.state.get();
    all['session_count'] = 99;
    expect(a.state.get('session_count')).toBe(0);
  });
});
