/**
 * A real process SIGKILLed right after a graph run's final commit point (issue 46): its last
 * transition was never appended, and `skein show`, `history()` and a copy still find it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSessionManager } from '@skein/session-file';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureIo } from './test-support/capture-io.js';
import { supportGraph } from './test-support/fixtures.js';

let dir = '';

function killedAfterFinalCommit(sessionId: string): Promise<void> {
  const worker = fileURLToPath(new URL('./test-support/final-commit-worker.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@skein/source', '--import', 'tsx', worker, dir, sessionId], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`the worker was not killed after its final commit:\n${out}`)),
    );
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-inspector-killed-tail-'));
  await killedAfterFinalCommit('killed');
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('a run killed right after its final commit: show, history() and a copy find its last transition', async () => {
  const runDir = join(dir, 'session_killed', 'multi_agents', 'multi_agent_support');
  const doc = JSON.parse(await readFile(join(runDir, 'multi_agent.json'), 'utf8')) as {
    state: { status: string; transitionCount: number; lastTransitions: { kind: string }[] };
  };
  // The kill landed between the commit point and the append: the document counts 5, 4 are stored.
  expect(doc.state).toMatchObject({ status: 'completed', transitionCount: 5, lastTransitions: [{ kind: 'complete' }] });
  expect(await readdir(join(runDir, 'transitions'))).toHaveLength(4);

  const io = captureIo();
  expect(await runCli(['show', dir, 'killed', '--json'], io)).toBe(0);
  const run = (JSON.parse(io.out()) as { runs: { transitions: { seq: number; kind: string }[] }[] }).runs[0];
  expect(run?.transitions.at(-1)).toMatchObject({ seq: 4, kind: 'complete' });

  const graph = supportGraph(new FileSessionManager({ sessionId: 'killed', storageDir: dir }));
  expect((await graph.history()).at(-1)?.transitions.map((t) => t.kind)).toEqual(['complete']);

  const copy = join(dir, 'copy');
  expect(await runCli(['sessions', 'copy', dir, copy], captureIo())).toBe(0);
  const copied = join(
    copy,
    'session_killed',
    'multi_agents',
    'multi_agent_support',
    'transitions',
    'transition_4.json',
  );
  expect(JSON.parse(await readFile(copied, 'utf8'))).toMatchObject({ seq: 4, kind: 'complete' });
});
