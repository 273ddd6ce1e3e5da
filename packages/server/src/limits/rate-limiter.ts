/**
 * Turns per principal per minute: a token bucket per principal (capacity = the limit, refilled at
 * limit / 60 per second). Pure arithmetic in {@link takeToken}; the map of buckets drops principals
 * whose bucket is full again.
 */

/** One principal's bucket. */
export interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Takes one token at time `now` (ms): the new bucket, and `retryAfterMs` (0 when a token was taken,
 * else how long until one is there).
 */
export function takeToken(
  bucket: Bucket | undefined,
  perMinute: number,
  now: number,
): { bucket: Bucket; retryAfterMs: number } {
  const ratePerMs = perMinute / 60_000;
  const previous = bucket ?? { tokens: perMinute, at: now };
  const tokens = Math.min(perMinute, previous.tokens + Math.max(0, now - previous.at) * ratePerMs);
  if (tokens >= 1) return { bucket: { tokens: tokens - 1, at: now }, retryAfterMs: 0 };
  return { bucket: { tokens, at: now }, retryAfterMs: Math.ceil((1 - tokens) / ratePerMs) };
}

export class RateLimiter {
  readonly #perMinute: number;
  readonly #buckets = new Map<string, Bucket>();
  readonly #now: () => number;

  constructor(perMinute: number, now: () => number = Date.now) {
    this.#perMinute = perMinute;
    this.#now = now;
  }

  /** Takes a turn for `principal`: 0 when allowed, else the ms to wait. */
  take(principal: string): number {
    const now = this.#now();
    const { bucket, retryAfterMs } = takeToken(this.#buckets.get(principal), this.#perMinute, now);
    this.#buckets.set(principal, bucket);
    if (this.#buckets.size > 10_000) this.#prune(now);
    return retryAfterMs;
  }

  #prune(now: number): void {
    const fullAfterMs = 60_000;
    for (const [key, b] of this.#buckets) if (now - b.at > fullAfterMs) this.#buckets.delete(key);
  }
}
