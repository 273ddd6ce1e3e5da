import { Message, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { INTERRUPTS_KEY } from '../index.js';
import { clientFor, closeServers, refundAgent, refunds, send, serve } from '../test-support/test-agents.js';

afterEach(closeServers);

const partsOf = (task: Task) =>
  (Message.toJSON(task.status?.message as Message) as { parts: unknown }).parts as {
    text?: string;
    data?: Record<string, unknown>;
  }[];

describe('an approval of a served agent is the task input-required state', () => {
  it('asks, takes "yes" as the next message on the task, and goes on', async () => {
    refunds.length = 0;
    const server = await serve({ agent: (sm) => refundAgent(sm) });
    const client = await clientFor(server.url);
    const asked = (await client.sendMessage(send('Refund order 7, 80 EUR'))) as Task;
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const [text, data] = partsOf(asked);
    expect(text?.text).toBe(
      'refund asks for approval to run issue_refund {"orderId":"7","amountEur":80}. Answer yes or no.',
    );
    expect(data?.data?.[INTERRUPTS_KEY]).toEqual([
      {
        id: 'tu-refund#approval',
        name: 'approval',
        reason: { tool: 'issue_refund', input: { orderId: '7', amountEur: 80 } },
        source: 'refund',
      },
    ]);
    expect(refunds).toEqual([]);
    const done = (await client.sendMessage(send('yes', { taskId: asked.id, contextId: asked.contextId }))) as Task;
    expect(done.id).toBe(asked.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.artifacts[0]?.parts[0]?.content?.value).toBe('Refunded 80 EUR for order 7.');
    expect(refunds).toEqual([{ orderId: '7', amountEur: 80 }]);
    expect(done.history.map((m) => (Message.toJSON(m) as { role: string }).role)).toEqual([
      'ROLE_USER',
      'ROLE_AGENT',
      'ROLE_USER',
      'ROLE_AGENT',
    ]);
  });

  it('takes an answer by id in a data part, streamed, and a denial', async () => {
    refunds.length = 0;
    const server = await serve({ agent: (sm) => refundAgent(sm) });
    const client = await clientFor(server.url, 'HTTP+JSON');
    const first: StreamResponse[] = [];
    for await (const e of client.sendMessageStream(send('Refund order 7, 80 EUR'))) first.push(e);
    const last = first.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const taskId = first[0]?.payload?.$case === 'task' ? first[0].payload.value.id : '';
    const answer = send('', {
      taskId,
      parts: [
        {
          data: {
            interruptResponses: [
              { interruptId: 'tu-refund#approval', response: { approved: false, message: 'too much' } },
            ],
          },
        },
      ],
    });
    const second: StreamResponse[] = [];
    for await (const e of client.sendMessageStream(answer)) second.push(e);
    const end = second.at(-1)?.payload;
    expect(end?.$case === 'statusUpdate' && end.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const task = await client.getTask({ tenant: '', id: taskId });
    expect(task.artifacts[0]?.parts[0]?.content?.value).toBe('The refund was not approved.');
    expect(refunds).toEqual([]);
  });

  it('refuses an answer that does not fit, changing nothing, and a message to a finished task', async () => {
    const server = await serve({ agent: (sm) => refundAgent(sm) });
    const client = await clientFor(server.url);
    const asked = (await client.sendMessage(send('Refund order 7, 80 EUR'))) as Task;
    const wrong = send('', {
      taskId: asked.id,
      parts: [{ data: { interruptResponses: [{ interruptId: 'nope', response: true }] } }],
    });
    await expect(client.sendMessage(wrong)).rejects.toThrow(
      /no question waits with id nope; no answer for tu-refund#approval/,
    );
    const still = await client.getTask({ tenant: '', id: asked.id });
    expect(still.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(still.history).toHaveLength(2);
    await client.sendMessage(send('yes', { taskId: asked.id }));
    await expect(client.sendMessage(send('more', { taskId: asked.id }))).rejects.toThrow(
      /is finished .* takes no more messages/,
    );
  });
});

describe('two answers to one question at once', () => {
  it('runs the task once: the second is refused (-32004) and changes nothing', async () => {
    refunds.length = 0;
    const server = await serve({ agent: (sm) => refundAgent(sm) });
    const client = await clientFor(server.url);
    const asked = (await client.sendMessage(send('Refund order 7, 80 EUR'))) as Task;
    const answers = await Promise.allSettled([
      client.sendMessage(send('yes', { taskId: asked.id })),
      client.sendMessage(send('yes', { taskId: asked.id })),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = answers.find((a) => a.status === 'rejected') as PromiseRejectedResult;
    // The second arrives while the first runs (refused: working) or after it (refused: finished).
    expect(String(refused.reason)).toMatch(
      /is working; send the next message when it asks for input|is finished \(completed\)/,
    );
    expect(refunds).toEqual([{ orderId: '7', amountEur: 80 }]);
  });
});
