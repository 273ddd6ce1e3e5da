import { Agent, type ModelRequest } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { Memory } from '@skein/memory';
import { describe, expect, it } from 'vitest';
import { memorySessions, post } from './test-support/server-fixtures.js';
import { createServer } from './create-server.js';

/** Answers from what memory put in its system prompt: the order it recalls, else it asks which. */
const recallingModel = (): ScriptedModel =>
  new ScriptedModel(
    [
      (request: ModelRequest) => {
        const order = /order (\d+)/.exec(request.systemPrompt ?? '')?.[1];
        return order ? `About order ${order}: the duplicate charge was reversed.` : 'Which order is it about?';
      },
    ],
    { loop: true },
  );

function memoryServer(authorized: boolean) {
  const memory = new Memory();
  const app = createServer({
    agents: {
      desk: ({ sessionManager }) => new Agent({ name: 'desk', model: recallingModel(), memory, sessionManager }),
    },
    sessions: memorySessions().sessions,
    ...(authorized ? { authorize: (request: Request) => request.headers.get('x-user') ?? undefined } : {}),
    onError: () => undefined,
  });
  return { app, memory };
}

const say = async (app: ReturnType<typeof createServer>, user: string, conversation: string, message: string) => {
  const res = await post(
    app,
    `/v1/agents/desk/conversations/${conversation}/messages`,
    { message },
    { 'x-user': user },
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { text: string }).text;
};

describe('memory per principal', () => {
  it("a customer's new conversation recalls their earlier one; another customer's never does", async () => {
    const { app, memory } = memoryServer(true);
    expect(await say(app, 'ann', 'c1', 'I was charged twice for order 42')).toBe('Which order is it about?');
    expect(await say(app, 'ann', 'c2', 'Did you fix my double charge?')).toContain('order 42');
    // Mallory uses the same conversation ids and the same words: nothing of Ann's reaches her.
    expect(await say(app, 'mallory', 'c1', 'Did you fix my double charge?')).toBe('Which order is it about?');
    expect(await say(app, 'mallory', 'c3', 'charged twice order double')).toBe('Which order is it about?');
    expect(await memory.store.listResources()).toEqual(['ann', 'mallory']);
    expect((await memory.store.listMessages('ann')).map((m) => m.thread)).toEqual(['c1', 'c1', 'c2', 'c2']);
  });

  it('without authorize (everyone is anonymous) the server names no resource: nothing is remembered', async () => {
    const { app, memory } = memoryServer(false);
    await say(app, 'x', 'c1', 'I was charged twice for order 42');
    expect(await say(app, 'x', 'c2', 'Did you fix my double charge?')).toBe('Which order is it about?');
    expect(await memory.store.listResources()).toEqual([]);
  });
});
