/**
 * Peers still on A2A 0.3: the real `@a2a-js/sdk` 0.3.14 client (what Strands and ADK pin, installed
 * here as `a2a-sdk-v03`), and the 1.3 SDK's own 0.3 transport, against skein's server.
 */
import { type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { Client } from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import type { Task as Task03 } from 'a2a-sdk-v03';
import { ClientFactory as ClientFactory03 } from 'a2a-sdk-v03/client';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers, refundAgent, refunds, send, serve, slowAgent } from '../test-support/test-agents.js';

afterEach(closeServers);

const message03 = (text: string, taskId?: string) => ({
  message: {
    kind: 'message' as const,
    messageId: crypto.randomUUID(),
    role: 'user' as const,
    parts: [{ kind: 'text' as const, text }],
    ...(taskId ? { taskId } : {}),
  },
});

describe('A2A 0.3 peers', () => {
  it('the @a2a-js/sdk 0.3.14 client reads the card, asks, answers the approval, streams and reads the task', async () => {
    refunds.length = 0;
    const server = await serve({ agent: (sm) => refundAgent(sm) });
    const client = await new ClientFactory03().createFromUrl(server.url);
    const card = await client.getAgentCard();
    expect(card.protocolVersion).toBe('0.3');
    expect(card.url).toBe(`${server.url}/a2a/jsonrpc`);
    expect(card.name).toBe('refund');
    const asked = (await client.sendMessage(message03('Refund order 7, 80 EUR'))) as Task03;
    expect(asked.kind).toBe('task');
    expect(asked.status.state).toBe('input-required');
    expect(asked.status.message?.parts[0]).toMatchObject({
      kind: 'text',
      text: expect.stringContaining('Answer yes or no'),
    });
    const events: { kind: string; state?: string }[] = [];
    for await (const e of client.sendMessageStream(message03('yes', asked.id)))
      events.push({ kind: e.kind, ...(e.kind === 'status-update' ? { state: e.status.state } : {}) });
    expect(events[0]?.kind).toBe('task');
    expect(events.at(-1)).toEqual({ kind: 'status-update', state: 'completed' });
    expect(events.map((e) => e.kind)).toContain('artifact-update');
    const task = await client.getTask({ id: asked.id });
    expect(task.status.state).toBe('completed');
    expect(task.artifacts?.[0]?.parts[0]).toMatchObject({ kind: 'text', text: 'Refunded 80 EUR for order 7.' });
    expect(refunds).toEqual([{ orderId: '7', amountEur: 80 }]);
  });

  it('the 0.3.14 client cancels and resubscribes', async () => {
    const server = await serve({ agent: (sm) => slowAgent(sm, 1_500, 'later') });
    const client = await new ClientFactory03().createFromUrl(server.url);
    const stream = client.sendMessageStream(message03('go'));
    const first = await stream.next();
    const taskId = first.value && first.value.kind === 'task' ? first.value.id : '';
    await stream.return(undefined);
    const rest: string[] = [];
    for await (const e of client.resubscribeTask({ id: taskId }))
      rest.push(e.kind === 'status-update' ? e.status.state : e.kind);
    expect(rest.at(-1)).toBe('completed');
    const slow = await serve({ agent: (sm) => slowAgent(sm, 10_000) });
    const slowClient = await new ClientFactory03().createFromUrl(slow.url);
    const running = (await slowClient.sendMessage({
      ...message03('go'),
      configuration: { blocking: false },
    })) as Task03;
    const canceled = await slowClient.cancelTask({ id: running.id });
    expect(canceled.status.state).toBe('canceled');
  });

  it("the 1.3 SDK's own 0.3 transport sends and reads", async () => {
    const server = await serve({ agent: (sm) => slowAgent(sm, 0, 'hello from skein') });
    const card = await (
      await fetch(`${server.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })
    ).json();
    const { AgentCard } = await import('@a2a-js/sdk');
    const client = new Client(
      new LegacyJsonRpcTransport({ endpoint: `${server.url}/a2a/jsonrpc` }),
      AgentCard.fromJSON(card),
    );
    expect(client.protocolVersion).toBe('0.3');
    const events: StreamResponse[] = [];
    for await (const e of client.sendMessageStream(send('hi'))) events.push(e);
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const taskId = events[0]?.payload?.$case === 'task' ? events[0].payload.value.id : '';
    const task: Task = await client.getTask({ tenant: '', id: taskId });
    expect(task.artifacts[0]?.parts[0]?.content?.value).toBe('hello from skein');
  });
});
