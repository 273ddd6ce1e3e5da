/**
 * A run stopped by its budget resumes in a new process (FileSessionManager) when invoked again with a
 * larger budget: a graph counts what the stored run spent and re-runs only the node that was cut; an
 * agent continues from its stored history when invoked without a prompt.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const src = (p: string): string => pathToFileURL(path.join(repoRoot, p)).href;
let dir: string;
let script: string;

const CHILD = `
import { z } from '${src('node_modules/zod/index.js')}';
import { Agent, tool } from '${src('packages/core/src/index.ts')}';
import { ScriptedModel } from '${src('packages/core/src/testing/index.ts')}';
import { GraphBuilder } from '${src('packages/graph/src/index.ts')}';
import { FileSessionManager } from '${src('packages/session-file/src/index.ts')}';
const [storageDir, mode, limit] = process.argv.slice(2);
const step = tool({ name: 'step', description: 'one step', inputSchema: z.object({ n: z.number() }), callback: ({ n }) => 'did ' + n });
const steps = (k, last) => [...Array.from({ length: k }, (_, n) => ({ toolUses: [{ name: 'step', input: { n } }] })), last];
const budget = { modelCalls: Number(limit) };
if (mode === 'graph') {
  const models = { a: new ScriptedModel(['a done']), b: new ScriptedModel(steps(2, 'b done')), c: new ScriptedModel(['c done']) };
  const agents = Object.entries(models).map(([name, model]) => new Agent({ name, model, tools: [step] }));
  const sessionManager = new FileSessionManager({ sessionId: 'graph-run', storageDir });
  const b = new GraphBuilder().setSessionManager(sessionManager);
  for (const agent of agents) b.addNode(agent);
  const graph = b.addEdge('a', 'b').addEdge('b', 'c').build();
  const r = await graph.invoke('go', { budget });
  const calls = Object.fromEntries(Object.entries(models).map(([k, m]) => [k, m.callCount]));
  process.stdout.write(JSON.stringify({ status: r.status, budgetExceeded: r.budgetExceeded, order: r.executionOrder, spent: r.usage.spend.modelCalls, calls, text: r.results.c?.text }) + '\\n');
} else {
  // The first process plays the first two turns; the second continues from the stored history.
  const script = limit === '2' ? steps(2, 'never') : [{ toolUses: [{ name: 'step', input: { n: 2 } }] }, 'agent done'];
  const model = new ScriptedModel(script);
  const agent = new Agent({ model, tools: [step], sessionManager: new FileSessionManager({ sessionId: 'agent-run', storageDir }) });
  const r = await agent.invoke(limit === '2' ? 'go' : undefined, { budget });
  const seen = model.requests[0]?.messages.length;
  process.stdout.write(JSON.stringify({ stopReason: r.stopReason, budgetExceeded: r.budgetExceeded, text: String(r), seen, messages: agent.messages.length }) + '\\n');
}
`;

function run(mode: 'graph' | 'agent', limit: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@skein/source', '--import', 'tsx', script, dir, mode, String(limit)],
      { cwd: repoRoot },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>)
        : reject(new Error(`child exited ${code}: ${err}`)),
    );
  });
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-budget-resume-'));
  script = path.join(dir, 'child.mts');
  await fs.writeFile(script, CHILD);
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('resuming a budget stop in a new process', () => {
  it('a graph resumes at the node that was cut, counting what the stored run spent', async () => {
    const first = await run('graph', 3);
    expect(first).toMatchObject({
      status: 'budgetExceeded',
      budgetExceeded: { limit: 'modelCalls', max: 3, spent: 3 },
      order: ['a'],
      calls: { a: 1, b: 2, c: 0 },
    });
    const again = await run('graph', 3); // not larger: stops before any node runs
    expect(again).toMatchObject({ status: 'budgetExceeded', order: ['a'], calls: { a: 0, b: 0, c: 0 } });
    const resumed = await run('graph', 10);
    // a is not run again; b runs again from its start (3 calls), then c: 3 + 4 = 7 calls in all.
    expect(resumed).toMatchObject({
      status: 'completed',
      order: ['a', 'b', 'c'],
      calls: { a: 0, b: 3, c: 1 },
      spent: 7,
      text: 'c done',
    });
  }, 60_000);

  it('an agent with a session continues from its stored history when invoked without a prompt', async () => {
    const first = await run('agent', 2);
    expect(first).toMatchObject({
      stopReason: 'budget_exceeded',
      budgetExceeded: { limit: 'modelCalls', max: 2 },
      messages: 5,
    });
    const resumed = await run('agent', 10);
    // The model sees the whole stored history (prompt, two tool turns) and nothing new from the caller.
    expect(resumed).toMatchObject({ stopReason: 'end_turn', text: 'agent done', seen: 5, messages: 8 });
  }, 60_000);
});
