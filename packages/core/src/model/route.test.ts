import { describe, expect, it } from 'vitest';
import {
  Agent,
  ConfigurationError,
  ModelThrottledError,
  fallback,
  route,
  tool,
  type AgentStreamEvent,
  type Model,
} from '../index.js';
import { z } from 'zod';
import { ScriptedModel } from '../testing/index.js';

describe('route()', () => {
  it("picks a model per request by the agent's name", async () => {
    const fast = new ScriptedModel(['fast answer'], { modelId: 'haiku' });
    const strong = new ScriptedModel(['strong answer'], { modelId: 'sonnet' });
    const model = route(({ agentName }) => (agentName === 'triage' ? 'fast' : 'strong'), { fast, strong });
    const triage = await new Agent({ name: 'triage', model }).invoke('hi');
    const billing = await new Agent({ name: 'billing', model }).invoke('hi');
    expect([String(triage), String(billing)]).toEqual(['fast answer', 'strong answer']);
    expect(triage.metrics.models).toEqual({ haiku: 1 });
    expect(billing.metrics.models).toEqual({ sonnet: 1 });
  });

  it('sees the tool count and a token estimate of the request', async () => {
    const seen: { tools: number; tokens: number }[] = [];
    const model = route(
      (c) => {
        seen.push({ tools: c.toolCount, tokens: c.estimatedTokens });
        return c.estimatedTokens > 100 ? 'big' : 'small';
      },
      { small: new ScriptedModel(['small']), big: new ScriptedModel(['big']) },
    );
    const lookup = tool({ name: 'lookup', description: 'Looks up', inputSchema: z.object({}), callback: () => 'x' });
    const agent = new Agent({ model, tools: [lookup] });
    expect(String(await agent.invoke('short'))).toBe('small');
    expect(String(await agent.invoke('long '.repeat(200)))).toBe('big');
    expect(seen[0]?.tools).toBe(1);
    expect(seen[1]?.tokens).toBeGreaterThan(250);
  });

  it('composes with fallback both ways, and the event stream says which model answered', async () => {
    const overloaded = { error: new ModelThrottledError('overloaded', { status: 529 }) };
    const model = fallback(
      [
        route(() => 'chain', {
          chain: fallback(
            [new ScriptedModel([overloaded], { modelId: 'a' }), new ScriptedModel([overloaded], { modelId: 'b' })],
            {
              circuitBreaker: false,
            },
          ),
        }),
        route(() => 'c', { c: new ScriptedModel(['from c'], { modelId: 'c' }) }),
      ],
      { circuitBreaker: false },
    );
    const agent = new Agent({ model });
    const attempts: string[] = [];
    agent.on('modelAttempt', (e: Extract<AgentStreamEvent, { type: 'modelAttempt' }>) =>
      attempts.push(`${e.modelId}:${e.outcome}`),
    );
    const result = await agent.invoke('hi');
    expect(String(result)).toBe('from c');
    expect(attempts).toEqual(['a:failed', 'b:failed', 'c:answered']);
    expect(result.metrics.models).toEqual({ c: 1 });
  });

  it('a select that returns nothing or an unknown key is a ConfigurationError naming the keys', async () => {
    const none = new Agent({ name: 'triage', model: route(() => undefined, { fast: new ScriptedModel(['x']) }) });
    await expect(none.invoke('hi')).rejects.toThrow(ConfigurationError);
    await expect(none.invoke('hi')).rejects.toThrow(
      /select returned nothing for agent "triage"; it must return one of "fast"/,
    );
    const unknown = route(() => 'slow' as 'fast', { fast: new ScriptedModel(['x']) });
    await expect(new Agent({ model: unknown }).invoke('hi')).rejects.toThrow(/select returned "slow"/);
  });

  it('rejects bad construction', () => {
    expect(() => route(() => 'a', {} as Record<'a', Model>)).toThrow(/models is empty/);
    expect(() => route(() => 'a', { a: 'claude' as unknown as Model })).toThrow(/models\.a is not a skein Model/);
    expect(() => route('a' as unknown as () => 'a', { a: new ScriptedModel([]) })).toThrow(/select must be a function/);
  });
});
