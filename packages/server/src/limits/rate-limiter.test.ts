import { describe, expect, it } from 'vitest';
import { RateLimiter, takeToken } from './rate-limiter.js';

describe('turns per minute (token bucket)', () => {
  it('a full bucket gives `perMinute` turns at once, then one every 60/perMinute s', () => {
    let bucket: ReturnType<typeof takeToken>['bucket'] | undefined;
    for (let i = 0; i < 3; i++) {
      const taken = takeToken(bucket, 3, 0);
      expect(taken.retryAfterMs).toBe(0);
      bucket = taken.bucket;
    }
    expect(takeToken(bucket, 3, 0).retryAfterMs).toBe(20_000);
    expect(takeToken(bucket, 3, 15_000).retryAfterMs).toBe(5_000);
    expect(takeToken(bucket, 3, 20_000).retryAfterMs).toBe(0);
  });

  it('keeps a bucket per principal', () => {
    let now = 0;
    const limiter = new RateLimiter(1, () => now);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('b')).toBe(0);
    expect(limiter.take('a')).toBe(60_000);
    now = 60_000;
    expect(limiter.take('a')).toBe(0);
  });
});
