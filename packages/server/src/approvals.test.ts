import { describe, expect, it } from 'vitest';
import { post, readSse, testServer } from './test-support/server-fixtures.js';

describe('pending and answers', () => {
  it('a tool that needs approval pauses the turn; GET pending lists it; answers resume it, the tool runs once', async () => {
    const { app, ledger } = testServer();
    const asked = await post(app, '/v1/agents/refund/conversations/a1/messages', {
      message: 'Refund order 42, 80 EUR',
    });
    const paused = (await asked.json()) as { status: string; interrupts: { id: string; name: string }[] };
    expect(paused.status).toBe('interrupted');
    expect(paused.interrupts).toHaveLength(1);
    const id = paused.interrupts[0]?.id as string;
    expect(paused.interrupts[0]).toMatchObject({
      name: 'approval',
      reason: { tool: 'issue_refund', input: { orderId: '42', amount: 80 } },
    });
    expect(ledger.refunds).toEqual([]);

    const pending = await (await app.request('/v1/agents/refund/conversations/a1/pending')).json();
    expect(pending).toEqual({ conversationId: 'a1', interrupts: paused.interrupts });

    const wrong = await post(app, '/v1/agents/refund/conversations/a1/answers', {
      answers: { 'nope#approval': { approved: true } },
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({ field: 'body.answers', pending: [id] });

    const answered = await post(
      app,
      '/v1/agents/refund/conversations/a1/answers',
      { answers: { [id]: { approved: true } } },
      { accept: 'text/event-stream' },
    );
    const events = await readSse(answered);
    expect(events[0]).toMatchObject({ event: 'turnStart', data: { turn: 2, answering: true } });
    expect(events.at(-1)?.data).toMatchObject({
      result: { status: 'completed', text: 'Refund: refunded 80 EUR for order 42' },
    });
    expect(ledger.refunds).toEqual(['42:80']);
    expect(await (await app.request('/v1/agents/refund/conversations/a1/pending')).json()).toEqual({
      conversationId: 'a1',
      interrupts: [],
    });
  });

  it('answers when nothing waits: 409', async () => {
    const { app } = testServer();
    await post(app, '/v1/agents/refund/conversations/a2/messages', { message: 'Refund order 42, 20 EUR' });
    const res = await post(app, '/v1/agents/refund/conversations/a2/answers', { answers: { x: true } });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ type: 'https://skein.dev/problems#nothing-pending' });
  });

  it('a denial reaches the model as an error result; nothing is refunded', async () => {
    const { app, ledger } = testServer();
    const asked = (await (
      await post(app, '/v1/agents/refund/conversations/a3/messages', { message: 'Refund 99 EUR' })
    ).json()) as {
      interrupts: { id: string }[];
    };
    const id = asked.interrupts[0]?.id as string;
    const res = await post(app, '/v1/agents/refund/conversations/a3/answers', {
      answers: { [id]: { approved: false, message: 'too much' } },
    });
    const result = (await res.json()) as { status: string; text: string };
    expect(result.status).toBe('completed');
    expect(result.text).toContain('denied');
    expect(ledger.refunds).toEqual([]);
    // The conversation keeps what the person answered, with their note, for any client to show.
    const view = (await (await app.fetch(new Request('http://x/v1/agents/refund/conversations/a3'))).json()) as {
      turns: { prompt: string; answers?: unknown }[];
    };
    expect(view.turns.map((t) => t.answers)).toEqual([undefined, { [id]: { approved: false, message: 'too much' } }]);
  });
});
