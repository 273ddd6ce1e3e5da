import { describe, expect, it } from 'vitest';
import { Agent, ConfigurationError, type AgentOptions } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

// Found by the bad-input fuzz (test/reliability): options of wrong types were taken as they were and
// failed later with a TypeError from inside skein ("options.hooks is not iterable",
// "messages.forEach is not a function", "handler is not a function"...).

const model = new ScriptedModel(['ok'], { loop: true });

describe('new Agent with options of wrong types', () => {
  it.each([
    ['messages', 'hello', /Agent option messages must be an array/],
    ['retryStrategy', 'often', /Agent option retryStrategy must be retry options/],
    ['retryStrategy', { nextDelay: 5 }, /Agent option retryStrategy/],
    ['hooks', 5, /Agent option hooks must be an array of hook providers/],
    ['hooks', [{}], /Agent option hooks/],
    ['callbackHandler', 5, /Agent option callbackHandler must be a function/],
    ['conversationManager', {}, /Agent option conversationManager must be a conversation manager/],
    ['sessionManager', {}, /Agent option sessionManager must be a session manager/],
    ['handoffs', 'billing', /Agent option handoffs must be an array of agents/],
    ['handoffs', [5], /Agent option handoffs/],
    ['name', 5, /Agent option name must be a non-empty string \(got 5\)/],
    ['name', '', /Agent option name/],
    ['systemPrompt', 5, /Agent option systemPrompt must be a string/],
    ['recordDirectToolCall', 'no', /Agent option recordDirectToolCall must be true or false/],
    ['id', 5, /Agent id 5 is invalid/],
    ['state', 5, /Agent option state must be an object of JSON values \(got 5\)/],
    ['state', [1], /Agent option state must be an object/],
    ['retryStrategy', { jitter: 'yes' }, /retryStrategy.jitter must be a boolean \(got "yes"\)/],
  ])('%s = %j is a ConfigurationError naming the option', (key, value, message) => {
    const build = (): Agent => new Agent({ model, [key]: value } as unknown as AgentOptions);
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(message);
  });

  it('shows a 10 kB id cut short in the message', () => {
    const error = ((): unknown => {
      try {
        return new Agent({ model, id: 'x'.repeat(10_240) });
      } catch (e) {
        return e;
      }
    })();
    expect(ConfigurationError.is(error)).toBe(true);
    expect((error as Error).message.length).toBeLessThan(300);
    expect((error as Error).message).toContain('(10242 characters)');
  });

  it('still takes every option of the right type', () => {
    const other = new Agent({ name: 'billing', model });
    const agent = new Agent({
      model,
      name: 'triage',
      id: 'triage-1',
      description: 'd',
      systemPrompt: 's',
      messages: [],
      state: {},
      hooks: [{ registerHooks: () => undefined }],
      callbackHandler: () => undefined,
      retryStrategy: null,
      recordDirectToolCall: false,
      handoffs: [other],
      handoffDescription: 'h',
    });
    expect(agent.name).toBe('triage');
  });
});
