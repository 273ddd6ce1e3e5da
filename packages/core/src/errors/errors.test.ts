import { describe, expect, it } from 'vitest';
import {
  ConcurrencyError,
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  SessionConflictError,
  SkeinError,
} from '../index.js';

describe('errors', () => {
  it('carry a code, a cause and their fields', () => {
    const cause = new Error('429');
    const e = new ModelThrottledError('slow down', { cause, retryAfterMs: 500, status: 429, requestId: 'req_1' });
    expect([e.code, e.cause, e.retryAfterMs, e.status, e.requestId, e.name]).toEqual([
      'model_throttled',
      cause,
      500,
      429,
      'req_1',
      'ModelThrottledError',
    ]);
    expect(new ContextWindowOverflowError('too long').code).toBe('context_window_overflow');
  });

  it('is() follows the class family and works across copies (no instanceof needed)', () => {
    const e = new ModelThrottledError('x');
    expect(ModelThrottledError.is(e)).toBe(true);
    expect(ModelError.is(e)).toBe(true);
    expect(SkeinError.is(e)).toBe(true);
    expect(ContextWindowOverflowError.is(e)).toBe(false);
    expect(SessionConflictError.is(new ConcurrencyError('x'))).toBe(false);
    const copy = Object.assign(Object.create(null) as object, {});
    Object.defineProperty(copy, Symbol.for('skein.error.kinds'), {
      value: ['ModelThrottledError', 'ModelError', 'SkeinError'],
    });
    expect(ModelThrottledError.is(copy)).toBe(true);
    expect(SkeinError.is(new Error('plain'))).toBe(false);
  });
});
