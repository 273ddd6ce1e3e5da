import { type Task, TaskState } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { clientFor, closeServers, refundAgent, refunds, send, serve } from '../test-support/test-agents.js';

afterEach(closeServers);

// Two keys of one tenant: callers may ask for refunds, only the approver may approve one.
const authorize = (request: Request) => {
  const key = request.headers.get('authorization');
  if (key === 'Bearer caller-key') return { id: 'desk' };
  if (key === 'Bearer approver-key') return { id: 'desk', approver: true };
  return undefined;
};

describe('who may answer what a served task asks (authorizeAnswer)', () => {
  it.each(['JSONRPC', 'HTTP+JSON'] as const)(
    '%s: a caller the rule refuses cannot approve (nothing stored, nothing run); the approver can',
    async (transport) => {
      refunds.length = 0;
      const server = await serve({
        agent: (sm) => refundAgent(sm),
        authorize,
        authorizeAnswer: ({ principal, door }) =>
          door === 'a2a' && typeof principal === 'object' && principal['approver'] === true,
        card: { bearerAuth: {} },
      });
      const caller = await clientFor(server.url, transport, 'caller-key');
      const asked = (await caller.sendMessage(send('Refund order 7, 80 EUR'))) as Task;
      expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      await expect(caller.sendMessage(send('yes', { taskId: asked.id }))).rejects.toThrow(/may not answer/);
      const after = await caller.getTask({ tenant: '', id: asked.id });
      expect(after.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(after.history).toHaveLength(asked.history.length);
      expect(refunds).toEqual([]);

      const approver = await clientFor(server.url, transport, 'approver-key');
      const done = (await approver.sendMessage(send('yes', { taskId: asked.id }))) as Task;
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(refunds).toEqual([{ orderId: '7', amountEur: 80 }]);
    },
  );

  it('the card declares bearer authentication; a call without the key is 401 and runs nothing', async () => {
    refunds.length = 0;
    const server = await serve({ agent: (sm) => refundAgent(sm), authorize, card: { bearerAuth: {} } });
    const card = (await (
      await fetch(`${server.url}/.well-known/agent-card.json`, {
        headers: { 'A2A-Version': '1.0' },
      })
    ).json()) as { securitySchemes: unknown; securityRequirements: unknown };
    expect(card.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { description: 'Send Authorization: Bearer <token>.', scheme: 'Bearer' } },
    });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
    const anonymous = await clientFor(server.url);
    await expect(anonymous.sendMessage(send('Refund order 7, 80 EUR'))).rejects.toThrow(/Unauthorized/);
    expect(refunds).toEqual([]);
  });
});

describe('bodies a hostile caller sends', () => {
  it('a body over the limit is 413; deep JSON is a malformed request', async () => {
    const server = await serve({ agent: (sm) => refundAgent(sm), limits: { maxBodyBytes: 10_000 } });
    const post = (path: string, body: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body,
      });
    const big = await post(
      '/a2a/jsonrpc',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: 'y'.repeat(12_000) }),
    );
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: -32600 } });
    const deep = `${'['.repeat(1_500)}${']'.repeat(1_500)}`;
    const rpc = await post('/a2a/jsonrpc', `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":${deep}}`);
    expect(rpc.status).toBe(400);
    expect(await rpc.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining('64 levels') } });
    const rest = await post('/a2a/rest/message:send', `{"message":${deep}}`);
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
  });
});
