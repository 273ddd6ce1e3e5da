import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSessionRepository } from '@skein/session-file';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const child = path.join(root, 'packages/graph/test/crash-child.ts');
const NODES = ['a', 'b', 'x', 'c', 'd'];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Runs the child; with `killOnReady` it is killed with SIGKILL as soon as it prints "ready". */
function runChild(args: string[], killOnReady: boolean): Promise<{ stdout: string; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--conditions=@skein/source', '--import', 'tsx', child, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (killOnReady && stdout.includes('ready\n')) proc.kill('SIGKILL');
    });
    proc.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    proc.on('error', reject);
    proc.on('close', (code, signal) => {
      if (!killOnReady && code !== 0) reject(new Error(`child exited with ${String(code)}: ${stderr}`));
      else resolve({ stdout, signal });
    });
  });
}

const starts = async (log: string): Promise<{ node: string; pid: string }[]> =>
  (await readFile(log, 'utf8'))
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [, node = '', pid = ''] = line.split(' ');
      return { node, pid };
    });

async function crashAndResume(
  mode: 'between' | 'during' | 'uncommitted',
  target: string,
  check?: (repo: FileSessionRepository) => Promise<void>,
): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'skein-graph-'));
  dirs.push(dir);
  const log = path.join(dir, 'starts.log');
  const killed = await runChild([dir, log, mode, target], true);
  expect(killed.signal).toBe('SIGKILL');

  // what the session says had completed when the process died
  const repo = new FileSessionRepository({ storageDir: dir });
  const state = (await repo.readMultiAgent('crash', 'crashy'))?.state as {
    status: string;
    running: Record<string, unknown>;
    orderLength: number;
  };
  // Node entries only: the run's own entries (`run.*`, its shape) are not nodes.
  const entries = Object.fromEntries(
    Object.entries(await repo.readNodeEntries('crash', 'crashy')).filter(([id]) => !id.startsWith('run.')),
  );
  // Completed: its entry has a place in the committed execution order (an entry written past it is an uncommitted step's).
  const committed = (id: string): boolean =>
    (entries[id] as { order: number[] }).order.some((at) => at < state.orderLength);
  const completedBefore = Object.keys(entries).filter((id) => !(id in state.running) && committed(id));
  await check?.(repo);
  await repo.close();
  expect(state.status).toBe('executing');
  const firstPid = (await starts(log))[0]?.pid;

  const resumed = await runChild([dir, log, 'none'], false);
  const result = JSON.parse(resumed.stdout.trim().split('\n').at(-1) ?? '{}') as {
    status: string;
    executionOrder: string[];
    kinds: string[];
    messages: Record<string, string[]>;
  };
  expect(result.status).toBe('completed');
  expect([...result.executionOrder].sort()).toEqual([...NODES].sort());
  const all = await starts(log);
  for (const id of completedBefore) expect(all.filter((s) => s.node === id)).toHaveLength(1); // completed: ran exactly once
  for (const id of NODES)
    expect(all.filter((s) => s.node === id && s.pid !== firstPid)).toHaveLength(completedBefore.includes(id) ? 0 : 1);
  for (const id of NODES) expect(result.messages[id]).toEqual(['user', 'assistant']); // re-run nodes restored to their pre-node history
  const after = new FileSessionRepository({ storageDir: dir });
  for (const id of NODES)
    expect(
      (await after.listMessages('crash', `crashy.${id}`)).map((row) => row.message.role),
      `stored history of ${id}`,
    ).toEqual(['user', 'assistant']);
  await after.close();
  expect(result.kinds).toContain('resume');
  return completedBefore;
}

describe('graph crash and resume (FileSessionManager, SIGKILL)', () => {
  it('killed between nodes: resumes without re-running a completed node', async () => {
    const completedBefore = await crashAndResume('between', 'b');
    expect(completedBefore).toEqual(expect.arrayContaining(['a', 'b']));
    expect(completedBefore).not.toContain('c');
  }, 60_000);

  it('killed after the concurrent writes of a step, before its commit point: the step is not done, and runs again exactly once', async () => {
    const completedBefore = await crashAndResume('uncommitted', 'b', async (repo) => {
      // The step's writes were stored: b's node entry, and its agent's messages and state.
      expect(Object.keys(await repo.readNodeEntries('crash', 'crashy'))).toContain('b');
      expect((await repo.listMessages('crash', 'crashy.b')).map((row) => row.message.role)).toEqual([
        'user',
        'assistant',
      ]);
      const transitions = await repo.readTransitions('crash', 'crashy');
      expect(transitions.map((t) => `${t.from}>${t.to}`)).not.toContain('b>c');
    });
    expect(completedBefore).toContain('a');
    expect(completedBefore).not.toContain('b');
  }, 60_000);

  it('killed during a node: that node re-runs from its start, completed nodes do not', async () => {
    const completedBefore = await crashAndResume('during', 'c');
    expect([...completedBefore].sort()).toEqual(['a', 'b', 'x']);
  }, 60_000);
});
