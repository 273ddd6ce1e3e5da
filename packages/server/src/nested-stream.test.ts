import { describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { createServer } from './index.js';
import { memorySessions, post, readSome, readSse, trickleModel } from './test-support/server-fixtures.js';
import { TestChat } from './test-support/ui-chat.js';

// An agent used as a tool reports in the turn's SSE events and UI message stream, at its path.

function server(): ReturnType<typeof createServer> {
  const { sessions } = memorySessions();
  return createServer({
    agents: {
      billing: ({ sessionManager }) =>
        new Agent({
          name: 'billing',
          sessionManager,
          model: new ScriptedModel(
            [
              {
                toolUses: [
                  {
                    name: 'helper',
                    input: { input: 'look up order 42 please' },
                  },
                ],
              },
              'Order 42 is refunded.',
            ],
            { loop: true },
          ),
          tools: [new Agent({ name: 'helper', model: trickleModel(5) }).asTool()],
        }),
    },
    sessions,
    onError: () => undefined,
  });
}

type Sse = { id: string; event: string; data: Record<string, unknown> };

describe('an agent used as a tool in the server streams', () => {
  it('SSE: its events carry its path and `nested`; a re-join mid-way replays them without a gap', async () => {
    const app = server();
    const res = await post(
      app,
      '/v1/agents/billing/conversations/n1/messages',
      { message: 'refund 42' },
      {
        accept: 'text/event-stream',
      },
    );
    const seen = (await readSome(res, 8)) as Sse[];
    expect(seen.some((e) => e.data['nested'] === true)).toBe(true);
    const rest = (await readSse(
      await app.request('/v1/agents/billing/conversations/n1/stream', {
        headers: { 'last-event-id': seen.at(-1)?.id as string },
      }),
    )) as Sse[];
    const all = [...seen, ...rest];
    expect(all.map((e) => e.id)).toEqual(all.map((_, i) => `1.0.${i}`));
    const text = (nested: boolean): string =>
      all
        .filter((e) => e.event === 'textDelta' && (e.data['nested'] === true) === nested)
        .map((e) => String(e.data['data']))
        .join('');
    expect(text(true)).toBe('You said: look up order 42 please');
    expect(text(false)).toBe('Order 42 is refunded.');
    for (const e of all.filter((x) => x.data['nested'] === true)) expect(e.data['path']).toEqual(['helper']);
    expect(all.at(-1)?.event).toBe('turnEnd');
  });

  it('UI stream: data-skein-nested parts with the path; the answer text part holds the outer text only', async () => {
    const chat = new TestChat(server(), '/v1/agents/billing/conversations/n2/ui');
    await chat.sendMessage({ text: 'refund 42' });
    const reply = chat.messages.at(-1);
    const texts = reply?.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text);
    expect(texts).toEqual(['Order 42 is refunded.']);
    const nested = reply?.parts
      .filter((p) => p.type === 'data-skein-nested')
      .map((p) => (p as { data: Record<string, unknown> }).data);
    expect(nested).toContainEqual({
      path: ['helper'],
      kind: 'text',
      text: 'You said: look up order 42 please',
    });
  });
});
