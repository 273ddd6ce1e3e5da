import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager } from '@skein/session-file';
import { createServer } from './index.js';
import { echoModel, post } from './test-support/server-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'skein-server-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('on the file store', () => {
  it('many new conversations of one principal at once: all run, all listed (the index is written one at a time, each writer lock released)', async () => {
    const app = createServer({
      agents: { echo: ({ sessionManager }) => new Agent({ model: echoModel(), sessionManager }) },
      sessions: (id) => new FileSessionManager({ sessionId: id, storageDir: dir }),
      onError: () => undefined,
    });
    const ids = Array.from({ length: 30 }, (_, i) => `burst-${i}`);
    const results = await Promise.all(
      ids.map((id) => post(app, `/v1/agents/echo/conversations/${id}/messages`, { message: id })),
    );
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    const list = (await (await app.request('/v1/agents/echo/conversations?limit=100')).json()) as {
      conversations: { id: string }[];
    };
    expect(list.conversations.map((c) => c.id).sort()).toEqual([...ids].sort());
    const again = await post(app, '/v1/agents/echo/conversations/burst-3/messages', { message: 'again' });
    expect(await again.json()).toMatchObject({ turn: 2, text: 'You said: again' });
    // Every request gave up what it wrote on the principal's behalf: no lock is left on any session (indexes included).
    const sessions = readdirSync(dir).filter((name) => name.startsWith('session_'));
    expect(sessions.some((name) => name.startsWith('session_skein-index-'))).toBe(true);
    expect(sessions.filter((name) => existsSync(join(dir, name, '.skein.lock')))).toEqual([]);
  });

  it('two processes on one store: "wait": true waits for the turn the other runs (looking again with a bound), then runs', async () => {
    // Two servers, each with its own writers on the store: what two processes are.
    const make = () =>
      createServer({
        agents: { echo: ({ sessionManager }) => new Agent({ model: echoModel(600), sessionManager }) },
        sessions: (id) => new FileSessionManager({ sessionId: id, storageDir: dir }),
        onError: () => undefined,
      });
    const [a, b] = [make(), make()];
    const path = '/v1/agents/echo/conversations/two-procs/messages';
    await post(a, path, { message: 'first' });
    const running = post(a, path, { message: 'slow one' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const busy = await post(b, path, { message: 'me too' });
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');
    const waited = await post(b, path, { message: 'after you', wait: true });
    expect(waited.status).toBe(200);
    expect(await waited.json()).toMatchObject({ turn: 3, text: 'You said: after you' });
    expect(await (await running).json()).toMatchObject({ turn: 2 });
  });

  it("a graph's run whose last transition a kill cut after the commit point: the conversation shows it (issue 46)", async () => {
    const app = createServer({
      graphs: {
        pair: ({ sessionManager }) =>
          new GraphBuilder()
            .setId('pair')
            .addNode(new Agent({ name: 'triage', model: echoModel() }))
            .addNode(new Agent({ name: 'answer', model: echoModel() }))
            .addEdge('triage', 'answer')
            .setSessionManager(sessionManager)
            .build(),
      },
      sessions: (id) => new FileSessionManager({ sessionId: id, storageDir: dir }),
      onError: () => undefined,
    });
    expect((await post(app, '/v1/graphs/pair/conversations/cut-1/messages', { message: 'hi' })).status).toBe(200);
    // What a writer killed right after its final state document leaves: the step's transitions not appended.
    const transitions = join(dir, 'session_cut-1', 'multi_agents', 'multi_agent_pair', 'transitions');
    const names = readdirSync(transitions);
    rmSync(join(transitions, `transition_${names.length - 1}.json`));
    const view = (await (await app.request('/v1/graphs/pair/conversations/cut-1')).json()) as {
      transitions: { seq: number; kind: string }[];
    };
    expect(view.transitions.map((t) => `${t.seq}:${t.kind}`)).toEqual(['0:start', '1:edge', '2:complete']);
  });
});
