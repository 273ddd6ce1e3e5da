import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentReply, PendingReply, RunReply } from './index.js';
import type { RestateServer } from './testing/restate-server.js';
import { restateServer } from '../../../test/servers/index.js';
import { freePort, startWorker, type WorkerProcess } from './test-support/worker-process.js';

// Restate's own server (installed into a cache on first use), a worker in its own process, and
// calls through the ingress as a user's client would make them. The server is the run's shared one:
// this file's worker names its services with a prefix of their own.

const PREFIX = 'main_';

let server: RestateServer;
let dir = '';
let worker: WorkerProcess;
let port = 0;
let trace = '';

const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  SKEIN_TRACE_FILE: trace,
  SKEIN_SERVICE_PREFIX: PREFIX,
  ...(process.env['SKEIN_WORKER_LOG'] ? { SKEIN_WORKER_LOG: process.env['SKEIN_WORKER_LOG'] } : {}),
  ...extra,
});
const lines = async (): Promise<string[]> =>
  (await readFile(trace, 'utf8').catch(() => '')).split('\n').filter(Boolean);
const count = (all: string[], prefix: string): number => all.filter((l) => l.startsWith(prefix)).length;

async function restartWorker(extra: Record<string, string> = {}): Promise<void> {
  await worker?.kill();
  worker = await startWorker(port, env(extra));
}

async function pendingOf(path: string): Promise<PendingReply> {
  for (let i = 0; i < 400; i++) {
    const pending = await server.call<PendingReply>(`${path}/pending`, null);
    if (pending.interrupts.length > 0) return pending;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${path} never paused; trace:\n${(await lines()).join('\n')}`);
}

async function waitFor(predicate: (all: string[]) => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (predicate(await lines())) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out; trace:\n${(await lines()).join('\n')}`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-restate-test-'));
  trace = join(dir, 'trace.log');
  server = await restateServer();
  port = await freePort();
  worker = await startWorker(port, env());
  await server.register(`http://127.0.0.1:${port}`);
}, 240_000);

afterAll(async () => {
  await worker?.kill();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('an agent conversation as a virtual object', () => {
  it('keeps the conversation across messages, with tools', async () => {
    const first = await server.call<AgentReply>(`${PREFIX}support/customer-1/send`, 'Order 42 was charged twice');
    expect(first.text).toBe('support handled order 42 (1 tool results seen).');
    expect(first.messageCount).toBe(4);
    const second = await server.call<AgentReply>(`${PREFIX}support/customer-1/send`, { prompt: 'And order 7?' });
    expect(second.text).toBe('support handled order 7 (2 tool results seen).');
    expect(second.messageCount).toBe(8);
    const history = await server.call<unknown[]>(`${PREFIX}support/customer-1/history`, null);
    expect(history).toHaveLength(8);
  }, 60_000);

  it('runs two messages sent at once to one conversation one after the other', async () => {
    const [a, b] = await Promise.all([
      server.call<AgentReply>(`${PREFIX}support/customer-2/send`, 'Order 1'),
      server.call<AgentReply>(`${PREFIX}support/customer-2/send`, 'Order 2'),
    ]);
    expect([a.messageCount, b.messageCount].sort()).toEqual([4, 8]);
  }, 60_000);

  it('rejects a message that is not text, saying what it takes', async () => {
    await expect(server.call(`${PREFIX}support/customer-3/send`, { text: 5 })).rejects.toThrow(
      /answered 400: .*send takes a non-empty string or \{ \\?"prompt\\?": string \}/,
    );
  }, 30_000);
});

describe('a worker killed mid-step', () => {
  it('replays concurrent tool calls that finished and runs only the ones that did not, concurrently again', async () => {
    // lookup_order finishes quickly; the other two are still running when the worker is killed.
    await restartWorker({
      SKEIN_TOOL_DELAYS_MS: JSON.stringify({ lookup_order: 20, check_invoice: 1500, check_refunds: 1500 }),
    });
    const before = await lines();
    const call = server.call<AgentReply>(`${PREFIX}parallel/customer-9/send`, 'Order 9');
    await waitFor(
      (all) =>
        count(all.slice(before.length), 'end lookup_order') === 1 && count(all.slice(before.length), 'start ') === 3,
    );
    await restartWorker({
      SKEIN_TOOL_DELAYS_MS: JSON.stringify({ lookup_order: 20, check_invoice: 400, check_refunds: 400 }),
    });
    const reply = await call;
    expect(reply.text).toBe('parallel handled order 9 (3 tool results seen).');
    const after = (await lines()).slice(before.length);
    // The finished call is replayed from the journal (started and ended once); the cut ones run again
    // and end once each.
    expect(count(after, 'start lookup_order'), after.join('\n')).toBe(1);
    for (const t of ['lookup_order', 'check_invoice', 'check_refunds'])
      expect(count(after, `end ${t}`), after.join('\n')).toBe(1);
    for (const t of ['check_invoice', 'check_refunds']) expect(count(after, `start ${t}`), after.join('\n')).toBe(2);
    // After the restart the two cut calls run concurrently again: both started before either ended.
    const restarted = after.slice(after.findIndex((l) => l.startsWith('end lookup_order')) + 1);
    const firstEnd = restarted.findIndex((l) => l.startsWith('end '));
    expect(
      restarted.slice(0, firstEnd).filter((l) => l.startsWith('start ')),
      after.join('\n'),
    ).toHaveLength(2);
    // The first model call finished before the kill and was not made again.
    expect(count(after, 'model parallel 1')).toBe(1);
  }, 90_000);

  it('completes a graph run without repeating the model or tool steps that finished', async () => {
    await restartWorker({ SKEIN_TOOL_DELAY_MS: '300' });
    const before = await lines();
    const run = server.call<RunReply>(`${PREFIX}desk/run-1/run`, 'Order 42 was charged twice');
    await waitFor((all) => all.slice(before.length).some((l) => l.startsWith('start ')));
    await restartWorker();
    const reply = await run;
    expect(reply.status).toBe('completed');
    const after = (await lines()).slice(before.length);
    // The same run uninterrupted, for comparison: the same answers, and the same model calls and
    // tool ends, each once (a step that finished before the kill is replayed, not made again).
    const mark = (await lines()).length;
    const clean = await server.call<RunReply>(`${PREFIX}desk/run-2/run`, 'Order 42 was charged twice');
    const uninterrupted = (await lines()).slice(mark);
    expect(reply.texts).toEqual(clean.texts);
    expect(reply.texts['summary']).toBe('summary handled order 42 (0 tool results seen).');
    const steps = (all: string[]): string[] => all.filter((l) => l.startsWith('model ') || l.startsWith('end ')).sort();
    expect(steps(after), after.join('\n')).toEqual(steps(uninterrupted));
    expect(new Set(steps(after)).size).toBe(steps(after).length);
  }, 90_000);
});

describe('a swarm as a workflow', () => {
  it('hands off with a nested-history filter and answers', async () => {
    const reply = await server.call<RunReply>(`${PREFIX}handoffs/run-1/run`, { task: 'Order 5 is wrong' });
    expect(reply.status).toBe('completed');
    expect(reply.transitions.map((t) => t.kind)).toEqual(['start', 'handoff', 'complete']);
    expect(reply.texts['billing']).toBe('billing handled order 5 (1 tool results seen).');
  }, 60_000);
});

describe('interrupts as durable promises', () => {
  it('a graph run waits for approval inside Restate, is answered through the ingress after a worker restart, and goes on', async () => {
    await restartWorker();
    const before = await lines();
    const invocation = await server.send(`${PREFIX}refunds/run-1/run`, 'Please refund order 42');
    const { interrupts } = await pendingOf(`${PREFIX}refunds/run-1`);
    expect(interrupts).toEqual([
      expect.objectContaining({ id: 'billing-issue_refund-1#approval', name: 'approval', source: 'billing' }),
    ]);
    // The worker dies while the run waits; the run holds no process, a fresh worker takes over.
    await restartWorker();
    const [waiting] = interrupts;
    await expect(
      server.call(`${PREFIX}refunds/run-1/respond`, { interruptId: 'nope#approval', response: { approved: true } }),
    ).rejects.toThrow(
      /answered 404: .*waits for no interrupt .*nope#approval.*; it waits for .*billing-issue_refund-1#approval/,
    );
    await expect(
      server.call(`${PREFIX}refunds/run-1/respond`, { interruptId: waiting?.id, response: 'yes' }),
    ).rejects.toThrow(/answered 400: .*asks for approval: answer \{ .*approved.*: true \| false/);
    expect(
      await server.call<PendingReply>(`${PREFIX}refunds/run-1/respond`, {
        interruptId: waiting?.id,
        response: { approved: true },
      }),
    ).toEqual({ interrupts: [] });
    const reply = await server.attach<RunReply>(invocation);
    expect(reply.status).toBe('completed');
    expect(reply.texts['billing']).toBe('billing handled order 42 (2 tool results seen).');
    expect(reply.transitions.map((t) => t.kind)).toEqual(['start', 'edge', 'interrupt', 'resume', 'complete']);
    const after = (await lines()).slice(before.length);
    expect(count(after, 'end issue_refund'), after.join('\n')).toBe(1);
    expect(count(after, 'end lookup_order'), after.join('\n')).toBe(1);
    expect(count(after, 'model triage'), after.join('\n')).toBe(1);
    expect(await server.call<PendingReply>(`${PREFIX}refunds/run-1/pending`, null)).toEqual({ interrupts: [] });
  }, 90_000);

  it('a conversation waits for approval across a worker restart; a denial reaches the model and the refund never runs', async () => {
    const before = await lines();
    const invocation = await server.send(`${PREFIX}refundDesk/customer-5/send`, 'Please refund order 5');
    const { interrupts } = await pendingOf(`${PREFIX}refundDesk/customer-5`);
    expect(interrupts.map((i) => i.name)).toEqual(['approval']);
    await restartWorker();
    await server.call(`${PREFIX}refundDesk/customer-5/respond`, [
      { interruptId: interrupts[0]?.id, response: { approved: false, message: 'over the limit' } },
    ]);
    const reply = await server.attach<AgentReply>(invocation);
    expect(reply.text).toBe('refundDesk handled order 5 (2 tool results seen).');
    const history = await server.call<
      { content: { toolResult?: { status: string; content: { text?: string }[] } }[] }[]
    >(`${PREFIX}refundDesk/customer-5/history`, null);
    const denied = history.flatMap((m) => m.content).find((b) => b.toolResult?.status === 'error');
    expect(denied?.toolResult?.content[0]?.text).toContain('over the limit');
    const after = (await lines()).slice(before.length);
    expect(count(after, 'start issue_refund')).toBe(0);
    expect(count(after, 'end lookup_order')).toBe(1);
    expect(await server.call<PendingReply>(`${PREFIX}refundDesk/customer-5/pending`, null)).toEqual({ interrupts: [] });
  }, 60_000);

  it('an agent used as a tool pauses for approval; the answer reaches it where it stood, across a worker restart', async () => {
    const before = await lines();
    const invocation = await server.send(`${PREFIX}nestedDesk/customer-6/send`, 'Please refund order 6');
    const { interrupts } = await pendingOf(`${PREFIX}nestedDesk/customer-6`);
    expect(interrupts.map((i) => [i.name, i.source])).toEqual([['approval', 'nestedDesk/refund']]);
    await restartWorker();
    await server.call(`${PREFIX}nestedDesk/customer-6/respond`, [
      { interruptId: interrupts[0]?.id, response: { approved: true } },
    ]);
    const reply = await server.attach<AgentReply>(invocation);
    expect(reply.text).toBe('desk: refund handled order 6 (2 tool results seen).');
    const after = (await lines()).slice(before.length);
    expect(count(after, 'end issue_refund'), after.join('\n')).toBe(1);
    expect(count(after, 'end lookup_order'), after.join('\n')).toBe(1);
    expect(await server.call<PendingReply>(`${PREFIX}nestedDesk/customer-6/pending`, null)).toEqual({ interrupts: [] });
  }, 60_000);

  it('a swarm member asks a question from inside a tool (context.interrupt); the answer reaches the tool', async () => {
    const before = await lines();
    const invocation = await server.send(`${PREFIX}askingSwarm/run-1/run`, 'Order 8 arrived broken');
    const { interrupts } = await pendingOf(`${PREFIX}askingSwarm/run-1`);
    expect(interrupts).toEqual([
      expect.objectContaining({
        name: 'address',
        source: 'billing',
        reason: { question: 'Where should the replacement for order 8 go?' },
      }),
    ]);
    await server.call(`${PREFIX}askingSwarm/run-1/respond`, {
      interruptResponse: { interruptId: interrupts[0]?.id, response: 'Kobe' },
    });
    const reply = await server.attach<RunReply>(invocation);
    expect(reply.status).toBe('completed');
    expect(reply.transitions.map((t) => t.kind)).toEqual(['start', 'handoff', 'interrupt', 'resume', 'complete']);
    expect(reply.texts['billing']).toBe('billing handled order 8 (1 tool results seen).');
    const after = (await lines()).slice(before.length);
    expect(count(after, 'end confirm_address'), after.join('\n')).toBe(1);
    expect(count(after, 'model triage'), after.join('\n')).toBe(1);
  }, 60_000);
});
