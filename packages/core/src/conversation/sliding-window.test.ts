import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  ContextWindowOverflowError,
  NullConversationManager,
  SlidingWindowConversationManager,
  TRUNCATED_TOOL_RESULT,
  tool,
  toolUsesOf,
  type Message,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const lookup = tool({
  name: 'lookup',
  description: 'lookup',
  inputSchema: z.object({}),
  callback: () => 'x'.repeat(50),
});

function whole(messages: Message[]): boolean {
  const first = messages[0];
  if (first?.content.some((b) => 'toolResult' in b)) return false;
  return messages.every(
    (m, i) => toolUsesOf(m).length === 0 || (messages[i + 1]?.content.some((b) => 'toolResult' in b) ?? false),
  );
}

describe('SlidingWindowConversationManager', () => {
  it("keeps the last windowSize messages after each invocation (the seeds' window of 4)", async () => {
    const agent = new Agent({
      model: new ScriptedModel(['a1', 'a2', 'a3']),
      conversationManager: new SlidingWindowConversationManager({ windowSize: 4 }),
    });
    for (const q of [
      'おはよう!私の趣味は競馬なんですよ。',
      'メジロマックイーンが好きだったんだよね。',
      '私の趣味ってなんだっけ?',
    ])
      await agent.invoke(q);
    expect(agent.messages.map((m) => (m.content[0] && 'text' in m.content[0] ? m.content[0].text : ''))).toEqual([
      'メジロマックイーンが好きだったんだよね。',
      'a2',
      '私の趣味ってなんだっけ?',
      'a3',
    ]);
    expect(agent.conversationManager.removedMessageCount).toBe(2);
  });

  it('never starts the window on a tool result nor keeps a toolUse without its result', async () => {
    const script = Array.from({ length: 6 }, () => [{ toolUses: [{ name: 'lookup' }] }, 'ok']).flat();
    const cm = new SlidingWindowConversationManager({ windowSize: 3 });
    const agent = new Agent({ model: new ScriptedModel(script), tools: [lookup], conversationManager: cm });
    for (let i = 0; i < 6; i++) {
      await agent.invoke(`q${i}`);
      expect(whole(agent.messages)).toBe(true);
      expect(agent.messages.length).toBeLessThanOrEqual(3);
    }
    expect(cm.removedMessageCount + agent.messages.length).toBe(24);
  });

  it('manages per turn when asked, during long tool loops', async () => {
    const script = [...Array.from({ length: 10 }, () => ({ toolUses: [{ name: 'lookup' }] })), 'done'];
    const sizes: number[] = [];
    const model = new ScriptedModel(script);
    const agent = new Agent({
      model,
      tools: [lookup],
      conversationManager: new SlidingWindowConversationManager({ windowSize: 6, perTurn: true }),
    });
    await agent.invoke('start');
    for (const r of model.requests) sizes.push(r.messages.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(6);
    expect(() => new SlidingWindowConversationManager({ perTurn: 0 })).toThrow(/perTurn/);
    expect(() => new SlidingWindowConversationManager({ windowSize: 0 })).toThrow(/windowSize/);
  });

  it('on context overflow truncates tool results first, then trims, and retries', async () => {
    const overflow = { error: new ContextWindowOverflowError('prompt is too long') };
    const model = new ScriptedModel([{ toolUses: [{ name: 'lookup' }] }, overflow, overflow, 'fits now']);
    const agent = new Agent({
      model,
      tools: [lookup],
      messages: [
        { role: 'user', content: [{ text: 'old' }] },
        { role: 'assistant', content: [{ text: 'old answer' }] },
      ],
    });
    const result = await agent.invoke('new question');
    expect(String(result)).toBe('fits now');
    const second = model.requests[2]?.messages ?? [];
    expect(JSON.stringify(second)).toContain(TRUNCATED_TOOL_RESULT);
    const third = model.requests[3]?.messages ?? [];
    expect(third.length).toBeLessThan(second.length);
    expect(whole(third)).toBe(true);
  });

  it('surfaces the overflow when nothing more can be removed', async () => {
    const overflow = { error: new ContextWindowOverflowError('prompt is too long') };
    const model = new ScriptedModel([overflow, overflow, overflow, overflow]);
    const agent = new Agent({ model, retryStrategy: null });
    await expect(agent.invoke('one huge question')).rejects.toBeInstanceOf(ContextWindowOverflowError);
    const nullAgent = new Agent({
      model: new ScriptedModel([overflow]),
      conversationManager: new NullConversationManager(),
    });
    await expect(nullAgent.invoke('q')).rejects.toThrow('prompt is too long');
    expect(nullAgent.messages).toHaveLength(1);
  });
});
