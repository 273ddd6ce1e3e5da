import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, BeforeToolCallEvent, isAgent, tool, type AgentHandle, type Message } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const turns = (count: number): Message[] =>
  Array.from({ length: count }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: [{ text: `m${i}` }] }));

describe('AgentHandle: the agent as hooks, tools, managers and handoffs see it', () => {
  it('is the agent itself, and isAgent() narrows it to the Agent with the rest of its surface', async () => {
    const seen: string[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'looks up',
      inputSchema: z.object({}),
      callback: (_input, context) => {
        const handle: AgentHandle = context.agent;
        seen.push(`tool ${handle.name} ${isAgent(handle) ? handle.tools.length : -1}`);
        return 'found';
      },
    });
    const agent = new Agent({
      name: 'desk',
      model: new ScriptedModel([{ toolUses: [{ name: 'lookup', input: {} }] }, 'done']),
      tools: [lookup],
    });
    agent.hooks.addCallback(BeforeToolCallEvent, (event) => {
      expect(event.agent).toBe(agent);
      seen.push(`hook ${event.agent.name} ${isAgent(event.agent) ? event.agent.tools.length : -1}`);
    });
    await agent.invoke('go');
    expect(seen).toEqual(['hook desk 1', 'tool desk 1']);
  });

  it('derives a fresh agent on the same model: no history, tools, hooks or state, and a history it never trims', async () => {
    const model = new ScriptedModel(['first', 'second'], { loop: true });
    const agent = new Agent({
      model,
      tools: [tool({ name: 't', description: 't', inputSchema: z.object({}), callback: () => 'r' })],
      messages: turns(2),
      state: { seen: true },
      systemPrompt: 'You are the desk.',
    });
    agent.hooks.addCallback(BeforeToolCallEvent, () => undefined);
    const derived = agent.derive({ systemPrompt: 'Summarize.' });
    expect(derived).not.toBe(agent);
    expect(isAgent(derived)).toBe(true);
    expect(derived.model).toBe(agent.model);
    expect([derived.systemPrompt, derived.messages, derived.state.get()]).toEqual(['Summarize.', [], {}]);
    expect(isAgent(derived) && derived.tools).toEqual([]);
    expect(derived.hooks.has(BeforeToolCallEvent)).toBe(false);
    // A default agent keeps a sliding window of 40 messages; a derived one keeps what it is given.
    derived.messages = turns(60);
    await derived.invoke('and now?');
    expect(derived.messages.length).toBe(62);
    expect(agent.derive().systemPrompt).toBeUndefined();
  });
});
