import type { Task } from '@a2a-js/sdk';
import { InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers, serve, slowAgent } from '../test-support/test-agents.js';

afterEach(closeServers);

async function setup() {
  const repository = new InMemorySessionRepository();
  const opened: string[] = [];
  const sessions = (sessionId: string) => {
    opened.push(sessionId);
    return new RepositorySessionManager({ sessionId, repository });
  };
  const server = await serve({
    agent: (sm) => slowAgent(sm, 0, 'ok'),
    sessions,
    authorize: (request) => request.headers.get('authorization')?.replace(/^Bearer /, '') || undefined,
  });
  const rpc = async (body: unknown, who = 'alice', headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${who}`, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json()) as { id?: unknown; result?: unknown; error?: { code: number; message: string } },
    };
  };
  return { server, repository, opened, rpc };
}

const sendParams = (text: string) => ({ message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text }] } });

describe('bad input gets the protocol error code, a clear message, and stores nothing', () => {
  it('malformed JSON-RPC, unknown methods, missing params', async () => {
    const { rpc, opened } = await setup();
    const notJson = await rpc('{"jsonrpc": "2.0", "method": ');
    expect(notJson.body.error?.code).toBe(-32700);
    expect(notJson.body.error?.message).toMatch(/^The body is not JSON: /);
    const noVersion = await rpc({ id: 1, method: 'GetTask', params: { id: 'x' } });
    expect(noVersion.body.error?.code).toBe(-32600);
    const unknown = await rpc({ jsonrpc: '2.0', id: 2, method: 'tasks/explode', params: {} });
    expect(unknown.body).toMatchObject({ id: 2, error: { code: -32601 } });
    expect(unknown.body.error?.message).toBe(
      'Unknown method "tasks/explode"; this agent answers SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask, GetExtendedAgentCard, CreateTaskPushNotificationConfig, GetTaskPushNotificationConfig, ListTaskPushNotificationConfigs, DeleteTaskPushNotificationConfig.',
    );
    const v03 = await rpc({ jsonrpc: '2.0', id: 3, method: 'message/send', params: {} });
    expect(v03.body.error?.message).toMatch(/an A2A 0.3 method: send the header A2A-Version: 0.3/);
    const noMessage = await rpc({ jsonrpc: '2.0', id: 4, method: 'SendMessage', params: {} });
    expect(noMessage.body.error?.code).toBe(-32602);
    const empty = await rpc({
      jsonrpc: '2.0',
      id: 5,
      method: 'SendMessage',
      params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [] } },
    });
    expect(empty.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/no text, data or file part/),
    });
    const badVersion = await rpc({ jsonrpc: '2.0', id: 6, method: 'GetTask', params: { id: 'x' } }, 'alice', {
      'A2A-Version': '9.9',
    });
    expect(badVersion.body.error?.code).toBe(-32009);
    expect(opened).toEqual(['a2a-tasks']);
  });

  it("unknown task ids and another principal's task are TaskNotFound, and nothing is read or stored for them", async () => {
    const { rpc, opened, repository } = await setup();
    const created = await rpc({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: sendParams('hi') });
    const task = (created.body.result as { task: Task }).task;
    expect(task.status?.state).toBe('TASK_STATE_COMPLETED');
    const seen = [...opened];
    for (const [who, id] of [
      ['alice', 'no-such-task'],
      ['bob', task.id],
    ] as const) {
      for (const method of ['GetTask', 'CancelTask']) {
        const r = await rpc({ jsonrpc: '2.0', id: 2, method, params: { id } }, who);
        expect(r.body.error?.code).toBe(-32001);
        expect(r.body.error?.message).toBe(
          `Task not found: ${id} (tasks are visible only to the caller that created them).`,
        );
      }
      const answer = await rpc(
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'SendMessage',
          params: { message: { ...sendParams('yes').message, taskId: id } },
        },
        who,
      );
      expect(answer.body.error?.code).toBe(-32001);
    }
    expect(opened).toEqual(seen);
    expect(await repository.readSession('no-such-task')).toBeUndefined();
    const bobs = await rpc({ jsonrpc: '2.0', id: 4, method: 'ListTasks', params: {} }, 'bob');
    expect(bobs.body.result).toMatchObject({ totalSize: 0 });
    const alices = await rpc({ jsonrpc: '2.0', id: 5, method: 'ListTasks', params: {} }, 'alice');
    expect(alices.body.result).toMatchObject({ totalSize: 1 });
  });

  it('refuses a caller the authorize hook does not know, over JSON-RPC and REST', async () => {
    const { server, opened } = await setup();
    const rpc = await fetch(`${server.url}/a2a/jsonrpc`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(rpc.status).toBe(401);
    const rest = await fetch(`${server.url}/a2a/rest/tasks/x`);
    expect(rest.status).toBe(401);
    expect(opened).toEqual(['a2a-tasks']);
  });

  it('REST: an unknown task is 404 with the A2A error body', async () => {
    const { server } = await setup();
    const res = await fetch(`${server.url}/a2a/rest/tasks/nope`, {
      headers: { authorization: 'Bearer alice', 'A2A-Version': '1.0' },
    });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: number; status: string; message: string } };
    expect(body.error).toMatchObject({
      code: 404,
      status: 'NOT_FOUND',
      message: expect.stringMatching(/^Task not found: nope/),
    });
  });
});
