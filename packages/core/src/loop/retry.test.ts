import { describe, expect, it } from 'vitest';
import { Agent, ExponentialBackoffRetry, ModelError, ModelThrottledError, type AgentStreamEvent } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const throttled = (retryAfterMs?: number): { error: Error } => ({
  error: new ModelThrottledError('slow down', retryAfterMs === undefined ? {} : { retryAfterMs }),
});

describe('retries of throttled model calls', () => {
  it('defaults to 6 attempts, 4 s doubling to 240 s', () => {
    const r = new ExponentialBackoffRetry({ jitter: false });
    const e = new ModelThrottledError('x');
    expect([1, 2, 3, 4, 5].map((a) => r.nextDelay(e, a))).toEqual([4000, 8000, 16000, 32000, 64000]);
    expect(r.nextDelay(e, 6)).toBeUndefined();
    expect(new ExponentialBackoffRetry({ jitter: false, maxAttempts: 20 }).nextDelay(e, 9)).toBe(240_000);
    expect(r.nextDelay(new ModelError('other'), 1)).toBeUndefined();
    const jittered = new ExponentialBackoffRetry().nextDelay(e, 2) ?? 0;
    expect(jittered).toBeGreaterThanOrEqual(4000);
    expect(jittered).toBeLessThanOrEqual(8000);
  });

  it('honours the server\'s retry-after, capped at maxDelayMs', () => {
    const r = new ExponentialBackoffRetry({ maxDelayMs: 10_000 });
    expect(r.nextDelay(new ModelThrottledError('x', { retryAfterMs: 1234 }), 1)).toBe(1234);
    expect(r.nextDelay(new ModelThrottledError('x', { retryAfterMs: 60_000 }), 1)).toBe(10_000);
  });

  it('retries in the loop and reports each retry as an event', async () => {
    const model = new ScriptedModel([throttled(), throttled(3), 'finally']);
    const agent = new Agent({ model, retryStrategy: { initialDelayMs: 1, maxDelayMs: 4 } });
    const retries: AgentStreamEvent[] = [];
    const gen = agent.stream('q');
    let step = await gen.next();
    while (!step.done) {
      if (step.value.type === 'modelRetry') retries.push(step.value);
      step = await gen.next();
    }
    expect(String(step.value)).toBe('finally');
    expect(retries.map((e) => (e.type === 'modelRetry' ? [e.attempt, e.delayMs <= 4] : []))).toEqual([[1, true], [2, true]]);
    expect(step.value.metrics.modelCallCount).toBe(3);
    expect(agent.messages).toHaveLength(2);
  });

  it('gives up after maxAttempts and surfaces the error; null disables retries', async () => {
    const agent = new Agent({ model: new ScriptedModel([throttled(), throttled(), throttled()]), retryStrategy: { maxAttempts: 2, initialDelayMs: 1 } });
    await expect(agent.invoke('q')).rejects.toBeInstanceOf(ModelThrottledError);
    const none = new Agent({ model: new ScriptedModel([throttled(), 'never']), retryStrategy: null });
    await expect(none.invoke('q')).rejects.toThrow('slow down');
  });

  it('rejects impossible retry options', () => {
    expect(() => new Agent({ model: new ScriptedModel([]), retryStrategy: { maxAttempts: 0 } })).toThrow(/maxAttempts/);
  });
});
