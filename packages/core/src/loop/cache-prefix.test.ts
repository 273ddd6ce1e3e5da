import { describe, expect, it } from 'vitest';
import { Agent, SlidingWindowConversationManager, type AgentStreamEvent, type Model } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

/** A scripted model that says it places cache breakpoints itself. */
function caching(script: string[]): Model {
  const inner = new ScriptedModel(script);
  return { modelId: 'cached', cache: 'auto', stream: (r) => inner.stream(r) };
}

const warningsOf = (agent: Agent): string[] => {
  const out: string[] = [];
  agent.on('warning', (e: Extract<AgentStreamEvent, { type: 'warning' }>) => out.push(e.code));
  return out;
};

describe('prompt-cache prefix warnings', () => {
  it('stay silent while the conversation only grows', async () => {
    const agent = new Agent({ model: caching(['a', 'b', 'c']) });
    const warnings = warningsOf(agent);
    for (const prompt of ['1', '2', '3']) await agent.invoke(prompt);
    expect(warnings).toEqual([]);
  });

  it('say so when a conversation manager trims the cached prefix', async () => {
    const agent = new Agent({
      model: caching(['a', 'b', 'c']),
      conversationManager: new SlidingWindowConversationManager({ windowSize: 2 }),
    });
    const warnings = warningsOf(agent);
    for (const prompt of ['1', '2', '3']) await agent.invoke(prompt);
    expect(warnings).toContain('cache_prefix_rewritten');
  });

  it('say so when the system prompt changes; models without cache: auto never check', async () => {
    const agent = new Agent({ model: caching(['a', 'b']), systemPrompt: 'v1' });
    const warnings = warningsOf(agent);
    await agent.invoke('1');
    agent.systemPrompt = 'v2';
    await agent.invoke('2');
    expect(warnings).toEqual(['cache_prefix_rewritten']);
    const plain = new Agent({
      model: new ScriptedModel(['a', 'b']),
      conversationManager: new SlidingWindowConversationManager({ windowSize: 1 }),
    });
    const none = warningsOf(plain);
    await plain.invoke('1');
    await plain.invoke('2');
    expect(none).toEqual([]);
  });
});
