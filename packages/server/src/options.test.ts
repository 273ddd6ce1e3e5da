import { describe, expect, it } from 'vitest';
import { Agent, ConfigurationError, RunBudget } from '@skein/core';
import { createServer, type ServerOptions } from './index.js';
import { echoModel, memorySessions, post } from './test-support/server-fixtures.js';

const { sessions } = memorySessions();
const echo = ({ sessionManager }: { sessionManager: never }) => new Agent({ model: echoModel(), sessionManager });

describe('createServer options', () => {
  it('refuses what cannot work, naming the option', () => {
    const cases: [unknown, RegExp][] = [
      [undefined, /needs/],
      [{ agents: { echo } }, /sessions must be/],
      [{ sessions }, /at least one of agents/],
      [{ sessions, agents: { 'a/b': echo } }, /not usable in a URL/],
      [{ sessions, agents: { echo: 'nope' } }, /agents\.echo must be a factory/],
      [
        { sessions, agents: { echo }, limits: { turnsPerMinute: 0 } },
        /limits\.turnsPerMinute must be a number above 0/,
      ],
      [{ sessions, agents: { echo }, limits: { speed: 1 } }, /unknown limit "speed"/],
      [{ sessions, agents: { echo }, port: 80 }, /unknown option "port"/],
      [{ sessions, agents: { echo }, authorize: 'yes' }, /authorize must be a function/],
    ];
    for (const [options, message] of cases) {
      expect(() => createServer(options as ServerOptions)).toThrow(ConfigurationError);
      expect(() => createServer(options as ServerOptions)).toThrow(message);
    }
  });

  it('a factory that returns the wrong kind is a 500, reported', async () => {
    const errors: unknown[] = [];
    const app = createServer({
      graphs: { wrong: ({ sessionManager }) => new Agent({ model: echoModel(), sessionManager }) as never },
      sessions,
      onError: (e) => errors.push(e),
    });
    expect((await post(app, '/v1/graphs/wrong/conversations/x/messages', { message: 'x' })).status).toBe(500);
    expect(String(errors[0])).toContain('did not return a Graph or Swarm');
  });

  it('runOptions gives each turn its invoke options (a per-conversation budget), and listeners added in the factory hear the run', async () => {
    const budgets = new Map<string, RunBudget>();
    const heard: string[] = [];
    const app = createServer({
      agents: {
        echo: ({ sessionManager }) =>
          new Agent({ model: echoModel(), sessionManager }).on('textDelta', (e) => heard.push(e.data)),
      },
      sessions,
      runOptions: ({ conversationId }) => {
        const budget = budgets.get(conversationId) ?? new RunBudget({ modelCalls: 1 });
        budgets.set(conversationId, budget);
        return { budget };
      },
    });
    expect(
      await (await post(app, '/v1/agents/echo/conversations/b1/messages', { message: 'one' })).json(),
    ).toMatchObject({ status: 'completed' });
    expect(heard.join('')).toBe('You said: one');
    const second = (await (
      await post(app, '/v1/agents/echo/conversations/b1/messages', { message: 'two' })
    ).json()) as Record<string, unknown>;
    expect(second).toMatchObject({ status: 'budgetExceeded', stopReason: 'budget_exceeded' });
    expect(String(second['failureReason'])).toContain('modelCalls');
  });
});
