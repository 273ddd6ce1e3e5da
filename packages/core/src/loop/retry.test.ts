import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  ContextWindowOverflowError,
  ExponentialBackoffRetry,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
  tool,
  type AgentStreamEvent,
} from '../index.js';
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

  it("honours the server's retry-after up to 60 s, even beyond maxDelayMs; longer gives up", () => {
    const r = new ExponentialBackoffRetry({ initialDelayMs: 10, maxDelayMs: 40 });
    expect(r.nextDelay(new ModelThrottledError('x', { retryAfterMs: 135 }), 1)).toBe(135);
    expect(r.nextDelay(new ModelThrottledError('x', { retryAfterMs: 60_000 }), 1)).toBe(60_000);
    expect(r.nextDelay(new ModelThrottledError('x', { retryAfterMs: 60_001 }), 1)).toBeUndefined();
  });

  it('retries transient faults (5xx, resets, cut streams) from 500 ms unless turned off; permanent errors never', () => {
    const r = new ExponentialBackoffRetry({ jitter: false });
    const e = new ModelTransientError('reset');
    expect([1, 2, 3].map((a) => r.nextDelay(e, a))).toEqual([500, 1000, 2000]);
    expect(r.nextDelay(e, 6)).toBeUndefined();
    expect(new ExponentialBackoffRetry({ retryTransient: false }).nextDelay(e, 1)).toBeUndefined();
    expect(r.nextDelay(new ContextWindowOverflowError('too long'), 1)).toBeUndefined();
    expect(r.nextDelay(new ModelError('bad request', { status: 400 }), 1)).toBeUndefined();
  });

  it('discards a cut partial answer: consumers are told, history, usage and tools see only the answer that completed', async () => {
    const tools: string[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up.',
      inputSchema: z.object({ id: z.string() }),
      callback: ({ id }) => void tools.push(id),
    });
    const model = new ScriptedModel(
      [
        {
          text: 'I will look order 1 up',
          toolUses: [{ name: 'lookup', input: { id: 'cut' } }],
          usage: { inputTokens: 100, outputTokens: 100 },
          cutAfterEvents: 5,
        },
        {
          text: 'Looking.',
          toolUses: [{ name: 'lookup', input: { id: 'ok' } }],
          usage: { inputTokens: 10, outputTokens: 5 },
        },
        { text: 'Done.', usage: { inputTokens: 10, outputTokens: 5 } },
      ],
      { chunkSize: 4 },
    );
    const agent = new Agent({
      model,
      tools: [lookup],
      retryStrategy: { transientInitialDelayMs: 1, initialDelayMs: 1, maxDelayMs: 2 },
    });
    const events: AgentStreamEvent[] = [];
    const gen = agent.stream('q');
    let step = await gen.next();
    for (; !step.done; step = await gen.next()) events.push(step.value);
    const retry = events.find((e) => e.type === 'modelRetry');
    expect(retry).toMatchObject({ type: 'modelRetry', attempt: 1, discardedPartialAnswer: true });
    expect(tools).toEqual(['ok']);
    expect(
      agent.messages.map((m) => m.content.map((b) => ('text' in b ? b.text : Object.keys(b)[0])).join('|')),
    ).toEqual(['q', 'Looking.|toolUse', 'toolResult', 'Done.']);
    expect(step.value.metrics.usage.inputTokens).toBe(20);
  });

  it('says a partial answer was discarded when the cut attempt had streamed only tool input', async () => {
    const ran: string[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up.',
      inputSchema: z.object({ id: z.string() }),
      callback: ({ id }) => void ran.push(id),
    });
    const model = new ScriptedModel(
      [
        { toolUses: [{ name: 'lookup', input: { id: 'cut' } }], cutAfterEvents: 3 },
        { toolUses: [{ name: 'lookup', input: { id: 'ok' } }] },
        'Done.',
      ],
      { chunkSize: 4 },
    );
    const agent = new Agent({
      model,
      tools: [lookup],
      retryStrategy: { transientInitialDelayMs: 1, initialDelayMs: 1, maxDelayMs: 2 },
    });
    const retries: AgentStreamEvent[] = [];
    agent.on('modelRetry', (e) => void retries.push(e));
    await agent.invoke('q');
    expect(retries).toMatchObject([{ attempt: 1, discardedPartialAnswer: true }]);
    expect(ran).toEqual(['ok']);
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
    expect(retries.map((e) => (e.type === 'modelRetry' ? [e.attempt, e.delayMs <= 4] : []))).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(step.value.metrics.modelCallCount).toBe(3);
    expect(agent.messages).toHaveLength(2);
  });

  it('gives up after maxAttempts and surfaces the error; null disables retries', async () => {
    const agent = new Agent({
      model: new ScriptedModel([throttled(), throttled(), throttled()]),
      retryStrategy: { maxAttempts: 2, initialDelayMs: 1 },
    });
    await expect(agent.invoke('q')).rejects.toBeInstanceOf(ModelThrottledError);
    const none = new Agent({ model: new ScriptedModel([throttled(), 'never']), retryStrategy: null });
    await expect(none.invoke('q')).rejects.toThrow('slow down');
  });

  it('rejects impossible retry options', () => {
    expect(() => new Agent({ model: new ScriptedModel([]), retryStrategy: { maxAttempts: 0 } })).toThrow(/maxAttempts/);
  });
});
