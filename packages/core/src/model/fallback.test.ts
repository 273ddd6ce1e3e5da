import { describe, expect, it } from 'vitest';
import {
  Agent,
  BudgetStopRaised,
  CancelledError,
  ConfigurationError,
  ContextWindowOverflowError,
  InterruptRaised,
  ModelError,
  ModelFallbackError,
  ModelThrottledError,
  ModelTransientError,
  fallback,
  type AgentStreamEvent,
  type Model,
  type ModelAttempt,
  type ModelStreamEvent,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const overloaded = (): { error: Error } => ({ error: new ModelThrottledError('overloaded (529)', { status: 529 }) });
const reset = (): { error: Error } => ({ error: new ModelTransientError('socket hang up (ECONNRESET)') });
const noBreaker = { circuitBreaker: false } as const;
const noWait = { jitter: false, initialDelayMs: 0, transientInitialDelayMs: 0, maxDelayMs: 0 };

/** Reads a model's stream to the end; returns the text, the attempts it reported, and what it threw. */
async function drain(model: Model): Promise<{ text: string; attempts: ModelAttempt[]; error: unknown }> {
  const attempts: ModelAttempt[] = [];
  let text = '';
  try {
    const request = {
      messages: [{ role: 'user' as const, content: [{ text: 'hi' }] }],
      observer: { attempt: (a: ModelAttempt) => attempts.push(a) },
    };
    for await (const e of model.stream(request) as AsyncIterable<ModelStreamEvent>)
      if ('contentBlockDelta' in e && 'text' in e.contentBlockDelta.delta) text += e.contentBlockDelta.delta.text;
  } catch (error) {
    return { text, attempts, error };
  }
  return { text, attempts, error: undefined };
}

/** A model that streams `text` then throws `error` (a connection cut mid-answer), then answers `after`. */
function cutsAfterOutput(text: string, error: Error, after: string[] = []): Model & { calls: number } {
  const model = {
    modelId: 'p',
    calls: 0,
    async *stream(): AsyncGenerator<ModelStreamEvent> {
      const call = model.calls++;
      yield { messageStart: { role: 'assistant' } };
      if (call === 0) {
        yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text } } };
        throw error;
      }
      yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text: after[call - 1] ?? '' } } };
      yield { contentBlockStop: { contentBlockIndex: 0 } };
      yield { messageStop: { stopReason: 'end_turn' } };
    },
  };
  return model;
}

const outcomes = (attempts: ModelAttempt[]): string[] => attempts.map((a) => `${a.model.modelId}:${a.outcome}`);

describe('fallback()', () => {
  it('moves on after a 529 and answers from the next model; the agent says which model answered', async () => {
    const primary = new ScriptedModel([overloaded()], { modelId: 'primary' });
    const backup = new ScriptedModel(['from the backup'], { modelId: 'backup' });
    const agent = new Agent({ model: fallback([primary, backup], noBreaker) });
    const events: AgentStreamEvent[] = [];
    agent.on('modelAttempt', (e) => events.push(e));
    const result = await agent.invoke('hi');
    expect(String(result)).toBe('from the backup');
    expect(events.map((e) => (e.type === 'modelAttempt' ? `${e.modelId}:${e.outcome}` : ''))).toEqual([
      'primary:failed',
      'backup:answered',
    ]);
    expect(result.metrics.models).toEqual({ backup: 1 });
    expect(result.metrics.modelCallCount).toBe(2);
    expect(agent.model.modelId).toBe('primary');
  });

  it.each([
    ['a 400', new ModelError('invalid request', { status: 400 })],
    ['a 401', new ModelError('bad key', { status: 401 })],
    ['a context overflow', new ContextWindowOverflowError('prompt is too long', { status: 400 })],
    ['a plain error', new TypeError('bug in a custom model')],
  ])('does not move on after %s: the primary error comes out untouched', async (_, error) => {
    const backup = new ScriptedModel(['never'], { modelId: 'backup' });
    const out = await drain(fallback([new ScriptedModel([{ error }]), backup], noBreaker));
    expect(out.error).toBe(error);
    expect(backup.callCount).toBe(0);
  });

  it.each([
    ['a cancellation', new CancelledError()],
    ['an interrupt', new InterruptRaised([])],
    ['a budget stop', new BudgetStopRaised({ limit: 'modelCalls', max: 1, spent: 1 })],
  ])('passes %s through untouched, to no other model', async (_, error) => {
    const primary = new ScriptedModel([{ error }]);
    const backup = new ScriptedModel(['never']);
    const out = await drain(fallback([primary, backup], noBreaker));
    expect(out.error).toBe(error);
    expect(backup.callCount).toBe(0);
    expect(out.attempts).toEqual([]);
  });

  it('an agent cancelled while the primary streams stops there: cancelled, no other model tried', async () => {
    const primary = new ScriptedModel([{ text: 'slow answer', delayMs: 5_000 }], { modelId: 'p' });
    const backup = new ScriptedModel(['never'], { modelId: 'b' });
    const agent = new Agent({ model: fallback([primary, backup], noBreaker) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 20);
    const result = await agent.invoke('hi', { signal: controller.signal });
    expect(result.stopReason).toBe('cancelled');
    expect(backup.callCount).toBe(0);
  });

  it('never restarts a stream that already produced output on another model', async () => {
    const cut = new ModelTransientError('cut');
    const backup = new ScriptedModel(['never'], { modelId: 'b' });
    const out = await drain(fallback([cutsAfterOutput('partial', cut), backup], noBreaker));
    expect(out.text).toBe('partial');
    expect(out.error).toBe(cut);
    expect(backup.callCount).toBe(0);
  });

  it("restarts it only through the caller's retry strategy, which discards the partial answer visibly", async () => {
    const primary = cutsAfterOutput('partial', new ModelTransientError('cut'), ['whole answer']);
    const backup = new ScriptedModel([], { modelId: 'b' });
    const agent = new Agent({ model: fallback([primary, backup], noBreaker), retryStrategy: noWait });
    const retries: AgentStreamEvent[] = [];
    agent.on('modelRetry', (e) => retries.push(e));
    const result = await agent.invoke('hi');
    expect(String(result)).toBe('whole answer');
    expect(retries).toMatchObject([{ type: 'modelRetry', discardedPartialAnswer: true }]);
    expect(backup.callCount).toBe(0);
  });

  it("when all fail, the error names the primary's error and every attempt with its model and time", async () => {
    const first = new ModelThrottledError('rate limited (429)', { status: 429 });
    const chain = fallback(
      [
        new ScriptedModel([{ error: first }], { modelId: 'claude' }),
        new ScriptedModel([reset()], { modelId: 'bedrock-east' }),
        new ScriptedModel([overloaded()], { modelId: 'bedrock-west' }),
      ],
      noBreaker,
    );
    const { error } = await drain(chain);
    if (!ModelFallbackError.is(error)) throw new Error(`expected a ModelFallbackError, got ${String(error)}`);
    expect(error.cause).toBe(first);
    expect(error.attempts.map((a) => a.modelId)).toEqual(['claude', 'bedrock-east', 'bedrock-west']);
    expect(error.attempts.every((a) => a.outcome === 'failed' && !Number.isNaN(Date.parse(a.at)))).toBe(true);
    expect(error.message).toMatch(/primary claude failed with: rate limited \(429\)/);
    expect(error.message).toMatch(/1\. claude .*2\. bedrock-east .*ECONNRESET.*3\. bedrock-west .*overloaded/);
    expect(error.status).toBe(529);
  });

  it('a permanent error after a fallback ends the chain with every attempt named', async () => {
    const invalid = new ModelError('validation', { status: 400 });
    const third = new ScriptedModel(['never']);
    const { error } = await drain(
      fallback(
        [
          new ScriptedModel([overloaded()], { modelId: 'a' }),
          new ScriptedModel([{ error: invalid }], { modelId: 'b' }),
          third,
        ],
        noBreaker,
      ),
    );
    expect(ModelFallbackError.is(error) && error.last).toBe(invalid);
    expect(third.callCount).toBe(0);
  });

  it('skips a model whose breaker is open (N failures in T), and tries it again after the cool-down', async () => {
    const primary = new ScriptedModel([overloaded(), overloaded(), 'primary is back'], { modelId: 'p' });
    const backup = new ScriptedModel(['b1', 'b2', 'b3'], { modelId: 'b' });
    const chain = fallback([primary, backup], { circuitBreaker: { failures: 2, windowMs: 10_000, cooldownMs: 40 } });
    expect((await drain(chain)).text).toBe('b1');
    expect((await drain(chain)).text).toBe('b2');
    const skipped = await drain(chain);
    expect(skipped.text).toBe('b3');
    expect(outcomes(skipped.attempts)).toEqual(['p:skipped', 'b:answered']);
    expect(primary.callCount).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const back = await drain(chain);
    expect(back.text).toBe('primary is back');
    expect(outcomes(back.attempts)).toEqual(['p:answered']);
  });

  it('a request that is wrong (4xx) does not count against the model in its breaker', async () => {
    const invalid = { error: new ModelError('bad request', { status: 400 }) };
    const primary = new ScriptedModel([invalid, 'primary answers'], { modelId: 'p' });
    const chain = fallback([primary, new ScriptedModel([], { modelId: 'b' })], { circuitBreaker: { failures: 1 } });
    expect((await drain(chain)).error).toBe(invalid.error);
    expect(outcomes((await drain(chain)).attempts)).toEqual(['p:answered']);
  });

  it('the breaker is per process: another chain holding the same model skips it too', async () => {
    const primary = new ScriptedModel([overloaded()], { modelId: 'p' });
    const settings = { circuitBreaker: { failures: 1, cooldownMs: 60_000 } };
    await drain(fallback([primary, new ScriptedModel(['x'])], settings));
    const other = await drain(fallback([primary, new ScriptedModel(['y'], { modelId: 'c' })], settings));
    expect(outcomes(other.attempts)).toEqual(['p:skipped', 'c:answered']);
  });

  it("one retry layer: the agent's maxAttempts bounds the requests of a call across the whole chain", async () => {
    const failing = (id: string): ScriptedModel => new ScriptedModel([overloaded()], { modelId: id, loop: true });
    const primary = failing('p');
    const backup = failing('b');
    const agent = new Agent({
      model: fallback([primary, backup], noBreaker),
      retryStrategy: { ...noWait, maxAttempts: 4 },
    });
    const error = await agent.invoke('hi').catch((e: unknown) => e);
    expect(ModelFallbackError.is(error)).toBe(true);
    expect(primary.callCount + backup.callCount).toBe(4);
  });

  it('counts every attempt in the run-tree budget and prices the answer as the model that gave it', async () => {
    const primary = new ScriptedModel([overloaded()], { modelId: 'p' });
    const backup = new ScriptedModel(
      [{ text: 'ok', usage: { inputTokens: 1000, outputTokens: 1000, totalTokens: 2000 } }],
      {
        modelId: 'b',
      },
    );
    const agent = new Agent({ model: fallback([primary, backup], noBreaker) });
    const prices = { p: { inputPerMTok: 100, outputPerMTok: 100 }, b: { inputPerMTok: 1, outputPerMTok: 2 } };
    const result = await agent.invoke('hi', { budget: { modelCalls: 10, costUsd: 5, prices } });
    expect(result.usage?.spend.modelCalls).toBe(2);
    expect(result.usage?.spend.costUsd).toBeCloseTo(0.003);
  });

  it('counts failed attempts once when the loop retries the chain', async () => {
    const primary = new ScriptedModel([overloaded(), 'ok'], { modelId: 'p' });
    const backup = new ScriptedModel([reset()], { modelId: 'b' });
    const agent = new Agent({ model: fallback([primary, backup], noBreaker), retryStrategy: noWait });
    const result = await agent.invoke('hi', { budget: { modelCalls: 10 } });
    expect(String(result)).toBe('ok');
    expect(result.usage?.spend.modelCalls).toBe(3);
  });

  it.each([
    ['an empty chain', [], /empty chain/],
    [
      'a model id instead of a model',
      ['claude-sonnet'],
      /models\[0\] is not a skein Model \(got the string "claude-sonnet"\)/,
    ],
    ['an object that is no model', [new ScriptedModel([]), { modelId: 'x' }], /models\[1\] is not a skein Model/],
    ['no array', 'claude' as unknown as Model[], /takes an array of models/],
  ])('rejects %s with a ConfigurationError', (_, models, message) => {
    expect(() => fallback(models as Model[])).toThrow(ConfigurationError);
    expect(() => fallback(models as Model[])).toThrow(message);
  });

  it('rejects breaker settings that cannot work', () => {
    expect(() => fallback([new ScriptedModel([])], { circuitBreaker: { failures: 0 } })).toThrow(
      /circuitBreaker.failures must be a positive number/,
    );
  });
});
