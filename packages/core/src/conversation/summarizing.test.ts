import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  ContextWindowOverflowError,
  SummarizingConversationManager,
  tool,
  toolUsesOf,
  type Message,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const overflow = { error: new ContextWindowOverflowError('prompt is too long') };

function history(pairs: number): Message[] {
  return Array.from({ length: pairs }, (_, i) => [
    { role: 'user' as const, content: [{ text: `q${i}` }] },
    { role: 'assistant' as const, content: [{ text: `a${i}` }] },
  ]).flat();
}

describe('SummarizingConversationManager', () => {
  it('clamps summaryRatio to 0.1..0.8 and refuses agent + prompt together', () => {
    expect(new SummarizingConversationManager({ summaryRatio: 5 }).summaryRatio).toBe(0.8);
    expect(new SummarizingConversationManager({ summaryRatio: 0 }).summaryRatio).toBe(0.1);
    const summarizationAgent = new Agent({ model: new ScriptedModel([]) });
    expect(() => new SummarizingConversationManager({ summarizationAgent, summarizationSystemPrompt: 'x' })).toThrow(
      /not both/,
    );
  });

  it('replaces the oldest messages with a summary on overflow, keeping recent ones', async () => {
    const summarizer = new ScriptedModel(['- user likes horse racing']);
    const model = new ScriptedModel([overflow, 'answer']);
    const agent = new Agent({
      model,
      messages: history(10),
      conversationManager: new SummarizingConversationManager({
        summaryRatio: 0.5,
        preserveRecentMessages: 4,
        summarizationAgent: new Agent({ model: summarizer }),
      }),
    });
    await agent.invoke('what is my hobby?');
    const sent = model.requests[1]?.messages ?? [];
    expect(sent[0]).toEqual({ role: 'user', content: [{ text: '- user likes horse racing' }] });
    expect(sent.length).toBe(21 - 10 + 1);
    expect(summarizer.requests[0]?.messages.length).toBe(11);
    expect(agent.conversationManager.removedMessageCount).toBe(10);
    expect(agent.conversationManager.getState()['summary_message']).toBeDefined();
  });

  it("summarizes with the agent's own model and the given system prompt by default", async () => {
    const model = new ScriptedModel([overflow, '- summary', 'answer']);
    const agent = new Agent({
      model,
      messages: history(6),
      conversationManager: new SummarizingConversationManager({
        preserveRecentMessages: 2,
        summarizationSystemPrompt: 'Summarize tersely.',
      }),
    });
    await agent.invoke('q');
    expect(model.requests[1]?.systemPrompt).toBe('Summarize tersely.');
    expect(agent.messages[0]?.content[0]).toEqual({ text: '- summary' });
  });

  it('keeps tool pairs whole', async () => {
    const t = tool({ name: 't', description: 't', inputSchema: z.object({}), callback: () => 'r' });
    const messages: Message[] = [
      { role: 'user', content: [{ text: 'q' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'x', name: 't', input: {} } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'x', status: 'success', content: [{ text: 'r' }] } }] },
      ...history(3),
    ];
    const agent = new Agent({
      model: new ScriptedModel([overflow, 'answer']),
      tools: [t],
      messages,
      conversationManager: new SummarizingConversationManager({
        summaryRatio: 0.2,
        preserveRecentMessages: 1,
        summarizationAgent: new Agent({ model: new ScriptedModel(['- s']) }),
      }),
    });
    await agent.invoke('next');
    expect(
      agent.messages.every(
        (m, i) => toolUsesOf(m).length === 0 || agent.messages[i + 1]?.content.some((b) => 'toolResult' in b),
      ),
    ).toBe(true);
    expect(agent.messages[1]?.content.some((b) => 'toolResult' in b)).toBe(false);
  });

  it('leaves the history untouched and says why when the summary fails or is empty', async () => {
    for (const summary of [{ error: new Error('summarizer down') }, '   ']) {
      const agent = new Agent({
        model: new ScriptedModel([overflow]),
        messages: history(6),
        retryStrategy: null,
        conversationManager: new SummarizingConversationManager({
          preserveRecentMessages: 2,
          summarizationAgent: new Agent({ model: new ScriptedModel([summary]), retryStrategy: null }),
        }),
      });
      const error = await agent.invoke('q').catch((e: unknown) => e);
      expect(ContextWindowOverflowError.is(error)).toBe(true);
      expect((error as Error).message).toMatch(/summarizer down|empty/);
      expect(agent.messages.slice(0, 12)).toEqual(history(6));
    }
  });
});
