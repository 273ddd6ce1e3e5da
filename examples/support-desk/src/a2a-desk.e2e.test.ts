/**
 * The desk over A2A, in separate processes: `npm run desk:a2a` serves the desk's graph (called with
 * @a2a-js/sdk's client), survives a SIGKILL mid-task, and serves the refund agent alone for `npm run
 * desk -- --refund-remote <url>`, with the refund approval crossing the boundary.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendMessageRequest, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  refundsMade,
  replies,
  runDesk,
  startDeskService,
  writeScript,
  type DeskService,
} from './test-support/desk-run.js';

let dir = '';
const services: DeskService[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-a2a-'));
});
afterEach(async () => {
  for (const s of services.splice(0)) await s.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as AddressInfo;
  s.close();
  return port;
}

interface Served {
  service: DeskService;
  url: string;
  /** The caller's key and the approver's, as the desk printed them. */
  key: string;
  approverKey: string;
}

async function serve(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const service = await startDeskService('a2a', args, /\[a2a\] card: /, env);
  services.push(service);
  const out = service.output();
  const url = /\[a2a\] serving .* at (http:\/\/\S+)/.exec(out)?.[1] ?? '';
  const key = /^\[a2a\] key: (\S+)$/m.exec(out)?.[1] ?? '';
  const approverKey = /^\[a2a\] approver key: (\S+)/m.exec(out)?.[1] ?? '';
  return { service, url, key, approverKey };
}

/** @a2a-js/sdk's client, sending `Authorization: Bearer <key>` on every call (none without a key). */
function clientFor(url: string, key?: string): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
    return fetch(input, { ...init, headers });
  };
  const transports = [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })];
  return new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports })).createFromUrl(
    url,
  );
}

const send = (text: string, message: Record<string, unknown> = {}) =>
  SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...message },
  });
const answerOf = (task: Task) => task.artifacts[0]?.parts[0]?.content?.value;

describe('npm run desk:a2a', () => {
  it('serves the desk graph: a card naming the desk, a billing answer, a refund approval only the approver key answers', async () => {
    const port = await freePort();
    const { url, key, approverKey } = await serve(['--port', String(port), '--dir', dir]);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(key).toMatch(/^[\w-]{24}$/);
    const anonymous = await clientFor(url);
    await expect(anonymous.sendMessage(send('Please refund order 108, 60 EUR'))).rejects.toThrow(/Unauthorized/);
    const client = await clientFor(url, key);
    const card = await client.getAgentCard();
    expect(card.name).toBe('support-desk');
    expect(Object.keys(card.securitySchemes)).toEqual(['bearer']);
    expect(card.skills.map((s) => s.id)).toEqual(['triage', 'billing', 'refund', 'notes', 'summary']);
    const billing = (await client.sendMessage(send('Hi, I was charged twice for order 42'))) as Task;
    expect(answerOf(billing)).toBe(
      'I reversed the duplicate charge on invoice INV-42; you are now charged 80 EUR once. Case closed.',
    );
    const asked = (await client.sendMessage(send('Please refund order 108, 60 EUR'))) as Task;
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(asked.status?.message?.parts[0]?.content?.value).toMatch(
      /^refund asks for approval to run issue_refund \{"orderId":"108","amountEur":60/,
    );
    // The caller asked for the refund: it may not approve it too.
    await expect(client.sendMessage(send('yes', { taskId: asked.id }))).rejects.toThrow(/may not answer/);
    expect(await refundsMade(dir)).toEqual([]);
    const approver = await clientFor(url, approverKey);
    const done = (await approver.sendMessage(send('yes', { taskId: asked.id }))) as Task;
    expect(answerOf(done)).toBe('I refunded 60 EUR for order 108; it reaches your card in 3 to 5 days. Case closed.');
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
  });

  it('a task the server was SIGKILLed in resumes when it starts again; the client resubscribes; one refund', async () => {
    const port = await freePort();
    const env = { DESK_TOOL_DELAY_MS: '1500' };
    const first = await serve(['--port', String(port), '--dir', dir], env);
    const client = await clientFor(first.url, first.key);
    let taskId = '';
    const before: StreamResponse[] = [];
    await expect(
      (async () => {
        for await (const e of client.sendMessageStream(send('Please refund order 7'))) {
          before.push(e);
          if (e.payload?.$case === 'task') taskId = e.payload.value.id;
          const said =
            e.payload?.$case === 'statusUpdate' ? e.payload.value.status?.message?.parts[0]?.content?.value : undefined;
          if (said === 'refund calls issue_refund') await first.service.kill('SIGKILL');
        }
      })(),
    ).rejects.toThrow();
    services.splice(services.indexOf(first.service), 1);
    expect(taskId).not.toBe('');
    const second = await serve(['--port', String(port), '--dir', dir], env);
    expect(second.service.output()).toContain('[a2a] resumed 1 task(s) a restart had cut');
    const after: StreamResponse[] = [];
    for await (const e of client.resubscribeTask({ tenant: '', id: taskId })) after.push(e);
    const last = after.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const task = await client.getTask({ tenant: '', id: taskId });
    expect(answerOf(task)).toBe('I refunded 12 EUR for order 7; it reaches your card in 3 to 5 days. Case closed.');
    expect(await refundsMade(dir)).toEqual([{ orderId: '7', amountEur: 12 }]);
  });
});

describe('npm run desk -- --refund-remote <url>', () => {
  it.each(['graph', 'swarm', 'agent'] as const)(
    '%s: the refund agent is a separate A2A service; its approval crosses the boundary, also from another process',
    async (shape) => {
      const refundDir = join(dir, 'refund-service');
      const { url, approverKey } = await serve(['--port', '0', '--serve', 'refund', '--dir', refundDir]);
      const deskDir = join(dir, 'desk');
      const script = await writeScript(dir, ['Please refund order 108, 60 EUR']);
      const common = ['--shape', shape, '--dir', deskDir, '--script', script, '--refund-remote', url];
      common.push('--refund-key', approverKey);
      const waiting = await runDesk(common);
      expect(waiting.stdout).toContain(`[desk] refund agent: ${url} (A2A)`);
      expect(waiting.stdout).toMatch(/\[desk\] waiting for approval \(.*\); it is stored/);
      expect(await refundsMade(refundDir)).toEqual([]);
      const approved = await runDesk([...common, '--resume', '--yes']);
      expect(approved.stdout).toMatch(
        /\[approval\] (refund|desk\/refund) asks to issue_refund \{"orderId":"108","amountEur":60,.*approved \(--yes\)/,
      );
      expect(replies(approved.stdout).at(-1)).toMatch(
        /^I refunded 60 EUR for order 108; it reaches your card in 3 to 5 days\./,
      );
      expect(await refundsMade(refundDir)).toEqual([{ orderId: '108', amountEur: 60 }]);
      expect(await refundsMade(deskDir)).toEqual([]);
    },
  );
});
