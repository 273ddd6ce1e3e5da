/**
 * Real processes on one file store: a SIGKILL in the middle of a turn and a restart (re-joining
 * finishes the turn, its tool ran once), SIGTERM (streams told, the turn stopped at a commit point and
 * resumed by the next process, finished nodes not run again), and two processes on one conversation
 * (the store's lock: the second answers 409).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSse as parse, readSseUntil as readUntil } from './test-support/sse-frames.js';
import { spawnServer, type ServerProcess } from './test-support/spawn-server.js';

const dirs: string[] = [];
const procs: ServerProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) p.child.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(): { env: Record<string, string>; ledger: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'skein-server-e2e-'));
  dirs.push(dir);
  const ledger = join(dir, 'ledger.txt');
  writeFileSync(ledger, '');
  return {
    env: { SKEIN_STORE: join(dir, 'sessions'), SKEIN_LEDGER: ledger },
    ledger: () =>
      readFileSync(ledger, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
  };
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const p = await spawnServer(env);
  procs.push(p);
  return p;
}

const postSse = (url: string, path: string, message: string): Promise<Response> =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ message }),
  });

describe('server processes', () => {
  it('SIGKILL mid-turn, restart, re-join: the turn completes once, its tool ran once', async () => {
    const { env, ledger } = setup();
    const first = await start(env);
    const res = await postSse(first.url, '/v1/agents/refund/conversations/kill-1/messages', 'Refund order 42');
    const seen = await readUntil(res, (events) =>
      events.some((e) => e.event === 'messageAdded' && JSON.stringify(e.data).includes('toolResult')),
    );
    await new Promise((r) => setTimeout(r, 150));
    first.child.kill('SIGKILL');
    await first.exited;
    expect(ledger()).toEqual(['model:refund', 'tool:issue_refund:42:20', 'model:refund']);

    const second = await start(env);
    const rejoin = await fetch(`${second.url}/v1/agents/refund/conversations/kill-1/stream`, {
      headers: { 'last-event-id': seen.at(-1)?.id as string },
    });
    expect(rejoin.status).toBe(200);
    const events = parse(await rejoin.text());
    expect(events[0]?.event).toBe('resumed');
    expect(events.at(-1)?.data).toMatchObject({
      result: { status: 'completed', turn: 1, text: 'Your refund is on its way.' },
    });
    expect(ledger().filter((l) => l.startsWith('tool:'))).toEqual(['tool:issue_refund:42:20']);
    const view = (await (await fetch(`${second.url}/v1/agents/refund/conversations/kill-1`)).json()) as {
      status: string;
      messages: unknown[];
    };
    expect(view.status).toBe('completed');
    expect(view.messages).toHaveLength(4);
    const next = await fetch(`${second.url}/v1/agents/refund/conversations/kill-1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message":"thanks"}',
    });
    expect(await next.json()).toMatchObject({ turn: 2 });
  });

  it('SIGTERM: the stream is told, the graph stops at a commit point, the process exits 0; the next one resumes without re-running the finished node', async () => {
    const { env, ledger } = setup();
    const first = await start(env);
    const res = await postSse(first.url, '/v1/graphs/chain/conversations/term-1/messages', 'go');
    await readUntil(res.clone(), (events) =>
      events.some((e) => e.event === 'nodeStart' && e.data['nodeId'] === 'second'),
    );
    first.child.kill('SIGTERM');
    const events = parse(await res.text());
    expect(await first.exited).toBe(0);
    expect(first.stderr()).toContain('SIGTERM: stopping');
    expect(events.map((e) => e.event)).toContain('serverStopping');
    expect(events.at(-1)?.data).toMatchObject({ result: { status: 'stopped' } });

    const second = await start(env);
    const rejoin = parse(
      await (
        await fetch(`${second.url}/v1/graphs/chain/conversations/term-1/stream`, {
          headers: { 'last-event-id': events.at(-1)?.id as string },
        })
      ).text(),
    );
    expect(rejoin.at(-1)?.data).toMatchObject({ result: { status: 'completed', text: 'second done' } });
    expect(ledger().filter((l) => l === 'model:first')).toHaveLength(1);
  });

  it('two processes on one store: the second one answers 409 while the first runs the conversation', async () => {
    const { env } = setup();
    const [a, b] = await Promise.all([start(env), start(env)]);
    const running = postSse(a.url, '/v1/agents/refund/conversations/two-1/messages', 'Refund order 42');
    await readUntil(await running, (events) => events.some((e) => e.event === 'toolStart'));
    const loser = await fetch(`${b.url}/v1/agents/refund/conversations/two-1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'me too' }),
    });
    expect(loser.status).toBe(409);
    expect(await loser.json()).toMatchObject({ type: 'https://skein.dev/problems#conversation-busy' });
    const stream = await fetch(`${b.url}/v1/agents/refund/conversations/two-1/stream`);
    expect(stream.status).toBe(409);
  });
});
