import { describe, expect, it } from 'vitest';
import { Agent, CancelledError, type Model, type ModelRequest, type ModelStreamEvent } from '../index.js';

// An invocation makes its abort signal only when something reads it (a model reading its request's
// signal, a tool). These cases check that the signal a model reads late, or through a copy of its
// request, is the one it would have got had the signal been made at the start.

const answer: ModelStreamEvent[] = [
  { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'ok' } } },
  { messageStop: { stopReason: 'end_turn' } },
];

/** A model that runs `before` on the request, then reads its signal, then answers. */
function model(before: (request: ModelRequest) => ModelRequest | Promise<ModelRequest>, seen: unknown[]): Model {
  return {
    modelId: 'probe',
    async *stream(request) {
      const r = await before(request);
      seen.push(r.signal?.aborted, r.signal?.reason);
      yield* answer;
    },
  };
}

describe("an invocation's signal", () => {
  it('is already aborted, with the caller’s reason, when the model reads it after the caller aborted', async () => {
    const caller = new AbortController();
    const seen: unknown[] = [];
    const agent = new Agent({
      model: model((r) => (caller.abort(new Error('caller gave up')), r), seen),
      retryStrategy: null,
    });
    await agent.invoke('q', { signal: caller.signal });
    expect(seen[0]).toBe(true);
    expect((seen[1] as Error).message).toBe('caller gave up');
  });

  it('is aborted by cancel() before anything read it, with the cancellation as reason', async () => {
    const seen: unknown[] = [];
    let agent: Agent | undefined;
    agent = new Agent({ model: model((r) => (agent?.cancel(), r), seen), retryStrategy: null });
    await agent.invoke('q');
    expect(seen[0]).toBe(true);
    expect(seen[1]).toBeInstanceOf(CancelledError);
  });

  it('aborts a signal read before the caller aborts, and reaches a copy of the request', async () => {
    const caller = new AbortController();
    const seen: unknown[] = [];
    const agent = new Agent({
      model: model(async (request) => {
        const copy = { ...request, systemPrompt: 'wrapped' };
        expect(copy.signal?.aborted).toBe(false);
        caller.abort(new Error('later'));
        return copy;
      }, seen),
      retryStrategy: null,
    });
    await agent.invoke('q', { signal: caller.signal });
    expect(seen).toEqual([true, new Error('later')]);
  });

  it('can be replaced on the request, as a plain property can', async () => {
    const own = new AbortController();
    const seen: unknown[] = [];
    const agent = new Agent({
      model: model((request) => {
        request.signal = own.signal;
        own.abort('mine');
        return request;
      }, seen),
      retryStrategy: null,
    });
    await agent.invoke('q');
    expect(seen).toEqual([true, 'mine']);
  });
});
