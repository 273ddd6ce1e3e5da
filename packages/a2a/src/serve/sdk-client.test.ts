import { Message, SendMessageRequest, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { Agent, tool } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveA2A, type A2AServer } from '../index.js';

const servers: A2AServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

function send(text: string, extra: Record<string, unknown> = {}): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: {
      messageId: crypto.randomUUID(),
      role: 'ROLE_USER',
      parts: [{ text }],
      ...extra,
    },
  });
}

async function clientFor(url: string, transport: 'JSONRPC' | 'HTTP+JSON' = 'JSONRPC') {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      preferredTransports: [transport],
    }),
  );
  return factory.createFromUrl(url);
}

const lookup = tool({
  name: 'lookup_order',
  description: 'Looks up an order.',
  inputSchema: z.object({ orderId: z.string() }),
  callback: ({ orderId }) => `order ${orderId}: 80 EUR`,
});

async function serveOrderAgent(): Promise<A2AServer> {
  const server = await serveA2A({
    agent: (sessionManager) =>
      new Agent({
        name: 'orders',
        description: 'Answers questions about orders.',
        tools: [lookup],
        sessionManager,
        model: new ScriptedModel([
          {
            toolUses: [{ name: 'lookup_order', input: { orderId: '42' } }],
            usage: { inputTokens: 3, outputTokens: 1 },
          },
          {
            text: 'Order 42 cost 80 EUR.',
            usage: { inputTokens: 10, outputTokens: 5 },
          },
        ]),
      }),
  });
  servers.push(server);
  return server;
}

describe('a skein agent served over A2A, called with @a2a-js/sdk 1.3', () => {
  for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
    it(`answers a blocking SendMessage with a completed task (${transport})`, async () => {
      const server = await serveOrderAgent();
      const client = await clientFor(server.url, transport);
      expect(client.transport.protocolName).toBe(transport);
      const result = (await client.sendMessage(send('What did order 42 cost?'))) as Task;
      expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(result.artifacts[0]?.parts[0]?.content).toEqual({
        $case: 'text',
        value: 'Order 42 cost 80 EUR.',
      });
      expect(result.metadata?.['skein']).toEqual({
        usage: { inputTokens: 13, outputTokens: 6, totalTokens: 19 },
      });
      const again = await client.getTask({ tenant: '', id: result.id });
      expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(again.history.map((m) => (Message.toJSON(m) as { role: string }).role)).toEqual([
        'ROLE_USER',
        'ROLE_AGENT',
      ]);
    });

    it(`streams progress, then the answer as an artifact (${transport})`, async () => {
      const server = await serveOrderAgent();
      const client = await clientFor(server.url, transport);
      const events: StreamResponse[] = [];
      for await (const e of client.sendMessageStream(send('What did order 42 cost?'))) events.push(e);
      const kinds = events.map((e) => e.payload?.$case);
      expect(kinds[0]).toBe('task');
      expect(kinds.slice(-2)).toEqual(['artifactUpdate', 'statusUpdate']);
      const texts = events.flatMap((e) =>
        e.payload?.$case === 'statusUpdate'
          ? (e.payload.value.status?.message?.parts ?? []).map((p) => p.content?.value)
          : [],
      );
      expect(texts).toContain('calls lookup_order');
      const last = events.at(-1)?.payload;
      expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    });
  }

  it('streams what an agent the served agent uses as a tool does, named by its path', async () => {
    const orders = new Agent({
      name: 'orders',
      tools: [lookup],
      model: new ScriptedModel([{ toolUses: [{ name: 'lookup_order', input: { orderId: '42' } }] }, 'It cost 80 EUR.']),
    });
    const server = await serveA2A({
      agent: (sessionManager) =>
        new Agent({
          name: 'desk',
          sessionManager,
          tools: [orders.asTool()],
          model: new ScriptedModel([
            { toolUses: [{ name: 'orders', input: { input: 'order 42?' } }] },
            'Order 42: 80 EUR.',
          ]),
        }),
    });
    servers.push(server);
    const client = await clientFor(server.url);
    const texts: unknown[] = [];
    for await (const e of client.sendMessageStream(send('What did order 42 cost?')))
      if (e.payload?.$case === 'statusUpdate')
        texts.push(...(e.payload.value.status?.message?.parts ?? []).map((p) => p.content?.value));
    expect(texts).toContain('calls orders');
    expect(texts).toContain('orders calls lookup_order');
  });

  it('serves a card that names the agent, its tools and streaming', async () => {
    const server = await serveOrderAgent();
    const client = await clientFor(server.url);
    const card = await client.getAgentCard();
    expect(card.name).toBe('orders');
    expect(card.description).toBe('Answers questions about orders.');
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.skills.map((s) => s.id)).toEqual(['lookup_order']);
    expect(card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion} ${i.url}`)).toEqual([
      `JSONRPC 1.0 ${server.url}/a2a/jsonrpc`,
      `HTTP+JSON 1.0 ${server.url}/a2a/rest`,
      `JSONRPC 0.3 ${server.url}/a2a/jsonrpc`,
    ]);
  });
});
