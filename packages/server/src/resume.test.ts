/**
 * A turn cut when its process died (the store stops taking writes at a chosen instant, the server is
 * dropped), then a new server on the same store: re-joining resumes the run from the store, and
 * nothing that was done is done again.
 */
import { describe, expect, it } from 'vitest';
import { Agent, RepositorySessionManager, type Message, type SessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { createServer } from './index.js';
import {
  dyingStore,
  echoModel,
  isToolResultMessage,
  post,
  readSse,
  refundModel,
  refundTool,
  type RefundLedger,
} from './test-support/server-fixtures.js';

function server(sessions: (id: string) => SessionManager, ledger: RefundLedger, calls: Record<string, number>) {
  const counted = (name: string, model: ScriptedModel): ScriptedModel => {
    const stream = model.stream.bind(model);
    model.stream = (request) => {
      calls[name] = (calls[name] ?? 0) + 1;
      return stream(request);
    };
    return model;
  };
  return createServer({
    agents: {
      refund: ({ sessionManager }) =>
        new Agent({
          name: 'refund',
          model: counted('refund', refundModel()),
          tools: [refundTool(ledger)],
          sessionManager,
        }),
    },
    graphs: {
      chain: ({ sessionManager }) =>
        new GraphBuilder()
          .addNode(new Agent({ name: 'first', model: counted('first', echoModel()) }))
          .addNode(new Agent({ name: 'second', model: counted('second', echoModel()) }))
          .addEdge('first', 'second')
          .setSessionManager(sessionManager)
          .build(),
    },
    sessions,
    onError: () => undefined,
  });
}

async function cut(
  app: ReturnType<typeof server>,
  path: string,
  message: string,
  died: () => boolean,
): Promise<string> {
  const res = await post(app, path, { message }, { accept: 'text/event-stream' });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  const until = Date.now() + 5_000;
  while (!died()) {
    if (Date.now() > until) throw new Error('the store never died');
    const next = await Promise.race([reader.read(), new Promise<undefined>((r) => setTimeout(() => r(undefined), 5))]);
    if (next?.value) text += new TextDecoder().decode(next.value);
  }
  await new Promise((r) => setTimeout(r, 20));
  void reader.cancel();
  const ids = [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
  return ids.at(-1) as string;
}

describe('resume after the process died', () => {
  it('an agent cut after its tool ran: re-joining finishes the turn; the tool ran once', async () => {
    const store = dyingStore(isToolResultMessage);
    const ledger: RefundLedger = { refunds: [] };
    const calls: Record<string, number> = {};
    const lastId = await cut(
      server(store.sessions, ledger, calls),
      '/v1/agents/refund/conversations/k1/messages',
      'Refund 20 EUR',
      store.died,
    );
    expect(ledger.refunds).toEqual(['42:20']);
    // The dead process may still compute, but nothing of it is stored: count the new one's calls.
    const after: Record<string, number> = {};
    const again = createServerOn(store, ledger, after);
    const res = await again.request('/v1/agents/refund/conversations/k1/stream', {
      headers: { 'last-event-id': lastId },
    });
    expect(res.status).toBe(200);
    const events = await readSse(res);
    expect(events[0]).toMatchObject({ event: 'resumed' });
    expect(events[1]).toMatchObject({ id: '1.1.0', event: 'turnStart', data: { turn: 1, attempt: 1, resumed: true } });
    expect(events.at(-1)?.data).toMatchObject({
      result: { status: 'completed', text: 'Refund: refunded 20 EUR for order 42' },
    });
    expect(ledger.refunds).toEqual(['42:20']);
    expect(after).toEqual({ refund: 1 });
    const view = (await (await again.request('/v1/agents/refund/conversations/k1')).json()) as {
      status: string;
      messages: Message[];
    };
    expect(view.status).toBe('completed');
    expect(view.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect((await again.request('/v1/agents/refund/conversations/k1/stream')).status).toBe(204);
  });

  it('cut before anything of the turn was stored: the turn runs from its prompt', async () => {
    const store = dyingStore(
      (op, args) => op === 'createMultiAgent' && (args[1] as { id: string }).id === 'skein-server',
    );
    const ledger: RefundLedger = { refunds: [] };
    const calls: Record<string, number> = {};
    await cut(
      server(store.sessions, ledger, calls),
      '/v1/agents/refund/conversations/k2/messages',
      'Refund 30 EUR',
      store.died,
    );
    const again = createServerOn(store, ledger, calls);
    const events = await readSse(await again.request('/v1/agents/refund/conversations/k2/stream'));
    expect(events.at(-1)?.data).toMatchObject({
      result: { status: 'completed', text: 'Refund: refunded 30 EUR for order 42' },
    });
    expect(ledger.refunds).toEqual(['42:30']);
  });

  it('cut after the run finished but before the server stored it: reported, nothing runs again', async () => {
    const store = dyingStore(
      (op, args) =>
        op === 'createMessage' &&
        (args[2] as { message: Message }).message.role === 'assistant' &&
        JSON.stringify(args[2]).includes('Refund:'),
    );
    const ledger: RefundLedger = { refunds: [] };
    const calls: Record<string, number> = {};
    await cut(
      server(store.sessions, ledger, calls),
      '/v1/agents/refund/conversations/k3/messages',
      'Refund 40 EUR',
      store.died,
    );
    expect(calls['refund']).toBe(2);
    const after: Record<string, number> = {};
    const again = createServerOn(store, ledger, after);
    const events = await readSse(await again.request('/v1/agents/refund/conversations/k3/stream'));
    expect(events.at(-1)?.data).toMatchObject({
      result: { status: 'completed', text: 'Refund: refunded 40 EUR for order 42' },
    });
    expect(after).toEqual({});
    expect(ledger.refunds).toEqual(['42:40']);
  });

  it('a graph cut after its first node: the resumed run does not run that node again', async () => {
    const store = dyingStore(
      (op, args) =>
        op === 'updateMultiAgent' &&
        (args[1] as { id: string }).id === 'graph' &&
        JSON.stringify(args[1]).includes('"second"'),
    );
    const ledger: RefundLedger = { refunds: [] };
    const calls: Record<string, number> = {};
    await cut(server(store.sessions, ledger, calls), '/v1/graphs/chain/conversations/k4/messages', 'go', store.died);
    expect(calls['first']).toBe(1);
    const after: Record<string, number> = {};
    const again = createServerOn(store, ledger, after);
    const blocked = await post(again, '/v1/graphs/chain/conversations/k4/messages', { message: 'new' });
    expect(blocked.status).toBe(409);
    expect(await blocked.json()).toMatchObject({ type: 'https://skein.dev/problems#turn-unfinished', turn: 1 });
    const events = await readSse(await again.request('/v1/graphs/chain/conversations/k4/stream'));
    expect(events.at(-1)?.data).toMatchObject({
      result: { status: 'completed', text: expect.stringContaining('first: You said: go') },
    });
    expect(after).toEqual({ second: 1 });
  });
});

function createServerOn(store: ReturnType<typeof dyingStore>, ledger: RefundLedger, calls: Record<string, number>) {
  return server((id) => new RepositorySessionManager({ sessionId: id, repository: store.inner }), ledger, calls);
}
