import { describe, expect, it } from 'vitest';
import {
  AfterInvocationEvent,
  Agent,
  AgentState,
  HookRegistry,
  MessageAddedEvent,
  SlidingWindowConversationManager,
  type Message,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

// An agent makes its state, its hook registry and its default conversation manager on first use.
// Built with the defaults, it must behave as one given them explicitly.

const history = (n: number): Message[] =>
  Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: [{ text: `m${i}` }] }));

describe('an agent built with the defaults', () => {
  it('keeps the same history, state and hook calls as one given the defaults explicitly', async () => {
    const run = async (agent: Agent): Promise<unknown> => {
      const added: string[] = [];
      agent.hooks.addCallback(MessageAddedEvent, (e) => void added.push(e.message.role));
      agent.hooks.addCallback(AfterInvocationEvent, (e) => void added.push(`after ${e.stopReason}`));
      agent.state.set('k', { v: 1 });
      const result = await agent.invoke('one more');
      return { messages: agent.messages, state: agent.state.get(), added, text: String(result) };
    };
    const model = (): ScriptedModel => new ScriptedModel(['answer']);
    const implicit = new Agent({ model: model(), messages: history(45) });
    const explicit = new Agent({
      model: model(),
      messages: history(45),
      state: {},
      conversationManager: new SlidingWindowConversationManager({ windowSize: 40 }),
    });
    expect(await run(implicit)).toEqual(await run(explicit));
    expect(implicit.messages).toHaveLength(40);
    expect(implicit.conversationManager).toBeInstanceOf(SlidingWindowConversationManager);
    expect(implicit.conversationManager).toBe(implicit.conversationManager);
    expect(implicit.state).toBeInstanceOf(AgentState);
    expect(implicit.hooks).toBeInstanceOf(HookRegistry);
    expect(implicit.hooks).toBe(implicit.hooks);
  });
});
