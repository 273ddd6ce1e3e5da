import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ConcurrencyError, tool, toolUsesOf, type Message } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

/** Every toolUse in the history has a toolResult in the next message. */
function pairsWhole(messages: Message[]): boolean {
  return messages.every((m, i) => {
    const uses = toolUsesOf(m).map((u) => u.toolUseId);
    if (uses.length === 0) return true;
    const next = messages[i + 1]?.content.flatMap((b) => ('toolResult' in b ? [b.toolResult.toolUseId] : [])) ?? [];
    return uses.every((id) => next.includes(id));
  });
}

const hang = tool({
  name: 'hang',
  description: 'never finishes on its own',
  inputSchema: z.object({}),
  callback: () => new Promise<string>(() => undefined),
});

describe('cancellation', () => {
  it('cancel() during a model call ends with stopReason cancelled and appends nothing partial', async () => {
    const agent = new Agent({ model: new ScriptedModel([{ text: 'a long answer', chunkDelayMs: 20 }]) });
    const pending = agent.invoke('q');
    setTimeout(() => agent.cancel(), 30);
    const result = await pending;
    expect(result.stopReason).toBe('cancelled');
    expect(agent.messages).toEqual([{ role: 'user', content: [{ text: 'q' }] }]);
  });

  it('a signal aborted during a tool gives the tool use an error result', async () => {
    const controller = new AbortController();
    const agent = new Agent({ model: new ScriptedModel([{ toolUses: [{ name: 'hang' }] }]), tools: [hang] });
    const pending = agent.invoke('q', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const result = await pending;
    expect(result.stopReason).toBe('cancelled');
    expect(agent.messages).toHaveLength(3);
    expect(agent.messages[2]?.content[0]).toMatchObject({ toolResult: { status: 'error' } });
    expect(pairsWhole(agent.messages)).toBe(true);
  });

  it('an already-aborted signal cancels before the model is called', async () => {
    const model = new ScriptedModel(['never']);
    const result = await new Agent({ model }).invoke('q', { signal: AbortSignal.abort() });
    expect(result.stopReason).toBe('cancelled');
    expect(model.callCount).toBe(0);
  });

  it('leaving a stream early never leaves a toolUse without its result', async () => {
    const agent = new Agent({
      model: new ScriptedModel([{ toolUses: [{ name: 'hang' }, { name: 'hang' }] }, 'later']),
      tools: [hang],
    });
    for await (const event of agent.stream('q')) {
      if (event.type === 'toolStart') break;
    }
    expect(pairsWhole(agent.messages)).toBe(true);
    expect(agent.messages.at(-1)?.role).toBe('user');
    expect(agent.isRunning).toBe(false);
    await expect(agent.invoke('next')).resolves.toMatchObject({ stopReason: 'end_turn' });
  });

  it('a hook that throws mid-tools still leaves the history whole', async () => {
    const agent = new Agent({ model: new ScriptedModel([{ toolUses: [{ name: 'hang' }] }]), tools: [hang] });
    agent.hooks.addCallback((await import('../index.js')).BeforeToolCallEvent, () => {
      throw new Error('policy hook crashed');
    });
    await expect(agent.invoke('q')).rejects.toThrow('policy hook crashed');
    expect(pairsWhole(agent.messages)).toBe(true);
  });

  it('refuses a second invoke while one runs', async () => {
    const agent = new Agent({ model: new ScriptedModel([{ text: 'slow', delayMs: 20 }, 'second']) });
    const first = agent.invoke('one');
    await expect(agent.invoke('two')).rejects.toBeInstanceOf(ConcurrencyError);
    await first;
    await expect(agent.invoke('two')).resolves.toBeDefined();
  });
});
