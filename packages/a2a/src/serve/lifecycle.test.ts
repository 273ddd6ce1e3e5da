import { type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { clientFor, closeServers, refundAgent, send, serve, slowAgent } from '../test-support/test-agents.js';

afterEach(closeServers);

const stateOf = (e: StreamResponse | undefined): TaskState | undefined => {
  const p = e?.payload;
  if (p?.$case === 'statusUpdate') return p.value.status?.state;
  if (p?.$case === 'task') return p.value.status?.state;
  return undefined;
};

describe('task lifecycle over A2A', () => {
  it('resubscribes after a dropped connection and gets the rest of the run', async () => {
    const server = await serve({ agent: (sm) => slowAgent(sm, 1_500, 'slow answer') });
    const client = await clientFor(server.url);
    const dropped = new AbortController();
    let taskId = '';
    await expect(
      (async () => {
        for await (const e of client.sendMessageStream(send('take your time'), { signal: dropped.signal })) {
          if (e.payload?.$case === 'task') {
            taskId = e.payload.value.id;
            dropped.abort();
          }
        }
      })(),
    ).rejects.toThrow();
    expect(taskId).not.toBe('');
    const rest: StreamResponse[] = [];
    for await (const e of client.resubscribeTask({ tenant: '', id: taskId })) rest.push(e);
    expect(rest[0]?.payload?.$case).toBe('task');
    expect(stateOf(rest.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
    const task = await client.getTask({ tenant: '', id: taskId });
    expect(task.artifacts[0]?.parts[0]?.content?.value).toBe('slow answer');
    await expect(async () => {
      for await (const _ of client.resubscribeTask({ tenant: '', id: taskId })) void _;
    }).rejects.toThrow(/is finished; read it with GetTask/);
  });

  it('cancels a running task, a waiting task, and refuses to cancel a finished one', async () => {
    const server = await serve({ agent: (sm) => slowAgent(sm, 10_000) });
    const client = await clientFor(server.url);
    const running = (await client.sendMessage(send('long job', {}, { returnImmediately: true }))) as Task;
    expect(running.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const canceled = await client.cancelTask({ tenant: '', id: running.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await client.getTask({ tenant: '', id: running.id })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await client.cancelTask({ tenant: '', id: running.id, metadata: undefined })).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );

    const refundServer = await serve({ agent: (sm) => refundAgent(sm) });
    const refundClient = await clientFor(refundServer.url);
    const waiting = (await refundClient.sendMessage(send('Refund order 7, 80 EUR'))) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const closed = await refundClient.cancelTask({ tenant: '', id: waiting.id, metadata: undefined });
    expect(closed.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(refundClient.sendMessage(send('yes', { taskId: waiting.id }))).rejects.toThrow(/is finished/);

    const quick = await serve({ agent: (sm) => slowAgent(sm, 0, 'quick') });
    const quickClient = await clientFor(quick.url);
    const done = (await quickClient.sendMessage(send('hi'))) as Task;
    await expect(quickClient.cancelTask({ tenant: '', id: done.id, metadata: undefined })).rejects.toThrow(
      /finished and cannot be canceled/,
    );
  });

  it('answers GetTask and takes the answer to a waiting task after a restart', async () => {
    const repository = new InMemorySessionRepository();
    const sessions = (sessionId: string) => new RepositorySessionManager({ sessionId, repository });
    const first = await serve({ agent: (sm) => refundAgent(sm), sessions });
    let client = await clientFor(first.url);
    const waiting = (await client.sendMessage(send('Refund order 7, 80 EUR'))) as Task;
    await first.close();
    const second = await serve({ agent: (sm) => refundAgent(sm), sessions });
    client = await clientFor(second.url);
    const read = await client.getTask({ tenant: '', id: waiting.id });
    expect(read.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(read.history).toHaveLength(2);
    const done = (await client.sendMessage(send('yes', { taskId: waiting.id }))) as Task;
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const listed = await client.listTasks({
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks.map((t) => t.id)).toEqual([waiting.id]);
    expect(listed.totalSize).toBe(1);
  });
});
