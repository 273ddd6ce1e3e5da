import { describe, expect, it } from 'vitest';
import { Agent, ConfigurationError, setCheckedHistory, type Message } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

describe('setCheckedHistory', () => {
  it('hands an agent a history it appends to, where agent.messages = checks every message', async () => {
    const agent = new Agent({ model: new ScriptedModel(['Hello again.']), retryStrategy: null });
    const history: Message[] = [
      { role: 'user', content: [{ text: 'Hi' }] },
      { role: 'assistant', content: [{ text: 'Hello.' }] },
    ];
    setCheckedHistory(agent, history);
    expect(agent.messages).toBe(history);
    await agent.invoke('And again?');
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const bad = [{ role: 'system', content: [] }] as unknown as Message[];
    expect(() => {
      agent.messages = bad;
    }).toThrow(ConfigurationError);
  });

  it('assigns through the checked setter on anything that is not an Agent', () => {
    const seen: Message[][] = [];
    const other = {
      set messages(m: Message[]) {
        seen.push(m);
      },
      get messages(): Message[] {
        return seen.at(-1) ?? [];
      },
    };
    const history: Message[] = [{ role: 'user', content: [{ text: 'Hi' }] }];
    setCheckedHistory(other, history);
    expect(seen).toEqual([history]);
  });
});
