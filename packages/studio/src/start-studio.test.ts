import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ConfigurationError } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { trajectory } from '@skein/evals';
import { GraphBuilder } from '@skein/graph';
import { startStudio, type RunningStudio, type StudioTargets } from './index.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-studio-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const targets: StudioTargets = {
  graphs: {
    pair: ({ sessionManager }) =>
      new GraphBuilder()
        .addNode(new Agent({ name: 'first', model: new ScriptedModel(['one'], { loop: true }) }), 'first')
        .addNode(new Agent({ name: 'second', model: new ScriptedModel(['two'], { loop: true }) }), 'second')
        .addEdge('first', 'second')
        .setSessionManager(sessionManager)
        .build(),
  },
  agents: {
    solo: ({ sessionManager }) => new Agent({ model: new ScriptedModel(['hi'], { loop: true }), sessionManager }),
  },
};

describe('startStudio', () => {
  let studio: RunningStudio;
  afterAll(() => studio?.close());

  it('serves the page (strict CSP), its script, the targets with their shapes and the server routes, on 127.0.0.1, storing in SQLite', async () => {
    studio = await startStudio({ module: targets, store: `sqlite:${join(dir, 'nested/studio.db')}` });
    expect(studio.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await fetch(`${studio.url}/`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('/studio/studio.js');
    const script = await fetch(`${studio.url}/studio/studio.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await script.text()).length).toBeGreaterThan(1000);
    expect((await fetch(`${studio.url}/studio/nothing.js`)).status).toBe(404);
    const listed = (await (await fetch(`${studio.url}/studio/targets`)).json()) as { targets: unknown[] };
    expect(listed.targets).toEqual([
      {
        kind: 'graphs',
        name: 'pair',
        shape: {
          nodes: ['first', 'second'],
          edges: [{ from: 'first', to: 'second', conditional: false, join: false }],
          entryPoints: ['first'],
        },
        evals: false,
      },
      { kind: 'agents', name: 'solo', shape: null, evals: false },
    ]);
    const sent = await fetch(`${studio.url}/v1/graphs/pair/conversations/c1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'go' }),
    });
    expect(await sent.json()).toMatchObject({ status: 'completed', text: 'two' });
    expect((await stat(join(dir, 'nested/studio.db'))).size).toBeGreaterThan(0);
  }, 60_000);

  it("serves the inspector's page for a conversation (timeline, each node's conversation), and refuses bad ids", async () => {
    const page = await fetch(`${studio.url}/studio/inspect/c1`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('"first"');
    expect(html).toContain('"second"');
    expect(html).toContain('two');
    const missing = await fetch(`${studio.url}/studio/inspect/nobody`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/no conversation "nobody"/);
    for (const id of ['..%2Fescape', 'skein-index-0123', '%20']) {
      const bad = await fetch(`${studio.url}/studio/inspect/${id}`);
      expect(bad.status, id).toBe(400);
    }
  });

  it("runs the module's eval set against a target through the server's evals routes, runs kept in the store", async () => {
    const store = `sqlite:${join(dir, 'evals.db')}`;
    const module: StudioTargets = {
      ...targets,
      evals: {
        cases: [
          { id: 'both', input: 'go', expect: { trajectory: { nodes: ['first', 'second'] } } },
          { id: 'only-first', input: 'go', expect: { trajectory: { nodes: ['first'] } } },
        ],
        scorers: [trajectory()],
      },
    };
    let running = await startStudio({ module, store });
    const listed = (await (await fetch(`${running.url}/studio/targets`)).json()) as { targets: { evals: boolean }[] };
    expect(listed.targets.map((t) => t.evals)).toEqual([true, true]);
    const ran = await fetch(`${running.url}/v1/graphs/pair/evals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(ran.status).toBe(201);
    const { run } = (await ran.json()) as { run: { id: string; summary: { cases: { id: string; status: string }[] } } };
    expect(run.summary.cases.map((c) => [c.id, c.status])).toEqual([
      ['both', 'passed'],
      ['only-first', 'failed'],
    ]);
    await running.close();
    // A restart keeps the runs (they are in the store): the page's "previous run" is still there.
    running = await startStudio({ module, store });
    try {
      const runs = (await (await fetch(`${running.url}/v1/graphs/pair/evals`)).json()) as { runs: { id: string }[] };
      expect(runs.runs.map((r) => r.id)).toEqual([run.id]);
    } finally {
      await running.close();
    }
  }, 60_000);

  it('says what a module must export, and which stores it opens', async () => {
    const none = join(dir, 'none.mjs');
    await writeFile(none, 'export const x = 1;\n');
    await expect(startStudio({ module: none })).rejects.toThrow(
      /declares no targets; export default \{ agents, graphs, swarms \}.*exports: x/,
    );
    const empty = join(dir, 'empty.mjs');
    await writeFile(empty, 'export default () => ({ graphs: {} });\n');
    await expect(startStudio({ module: empty })).rejects.toThrow(/declares no agent, graph or swarm/);
    await expect(startStudio({ module: targets, store: 's3://bucket/prefix' })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
  });
});
