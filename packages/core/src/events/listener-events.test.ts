import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ModelThrottledError, tool, type AgentStreamEvent } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

// The event types listeners.test.ts does not reach: reasoning, retries and interrupts.
describe('agent listeners of the rarer events', () => {
  it('hear reasoningDelta, modelRetry and interrupt, the same events the stream yields', async () => {
    const refund = tool({
      name: 'refund',
      description: 'Refunds.',
      inputSchema: z.object({}),
      needsApproval: true,
      callback: () => 'refunded',
    });
    const model = new ScriptedModel([
      { error: new ModelThrottledError('slow down', { retryAfterMs: 1 }) },
      { reasoning: { text: 'A refund needs approval.' }, toolUses: [{ name: 'refund', input: {} }] },
    ]);
    const agent = new Agent({ model, tools: [refund], retryStrategy: { initialDelayMs: 1, maxDelayMs: 1 } });
    const heard: AgentStreamEvent[] = [];
    for (const type of ['reasoningDelta', 'modelRetry', 'interrupt'] as const)
      agent.on(type, (e) => void heard.push(e));
    const streamed: AgentStreamEvent[] = [];
    const gen = agent.stream('refund me');
    for (let step = await gen.next(); !step.done; step = await gen.next()) {
      if (['reasoningDelta', 'modelRetry', 'interrupt'].includes(step.value.type)) streamed.push(step.value);
    }
    expect(heard.map((e) => e.type)).toEqual(['modelRetry', 'reasoningDelta', 'interrupt']);
    expect(heard).toEqual(streamed);
    const retry = heard[0] as Extract<AgentStreamEvent, { type: 'modelRetry' }>;
    expect(ModelThrottledError.is(retry.error)).toBe(true);
    const pause = heard[2] as Extract<AgentStreamEvent, { type: 'interrupt' }>;
    expect(pause.interrupts.map((i) => i.name)).toEqual(['approval']);
  });
});
