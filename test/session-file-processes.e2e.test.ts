/**
 * The file store against real processes: a writer killed with SIGKILL in the middle of writing large
 * messages (every file must still parse, and the session must restore and continue), and a second
 * process refused while the first holds the session.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, NullConversationManager, SessionConflictError, messageText } from '@skein/core';
import { GraphBuilder } from '@skein/graph';
import { ScriptedModel } from '@skein/core/testing';
import { FileSessionManager } from '@skein/session-file';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const src = (p: string): string => pathToFileURL(path.join(repoRoot, p)).href;
let dir: string;
let script: string;

const CHILD = `
import { Agent, NullConversationManager } from '${src('packages/core/src/index.ts')}';
import { ScriptedModel } from '${src('packages/core/src/testing/index.ts')}';
import { FileSessionManager } from '${src('packages/session-file/src/index.ts')}';
import { GraphBuilder } from '${src('packages/graph/src/index.ts')}';
const [storageDir, mode] = process.argv.slice(2);
if (mode === 'fork') {
  // Runs a graph of two nodes, forks it at step 1 and stays alive with both writers open.
  const graph = new GraphBuilder()
    .setId('pair')
    .addNode(new Agent({ name: 'a', model: new ScriptedModel(['A']) }))
    .addNode(new Agent({ name: 'b', model: new ScriptedModel(['B']) }))
    .addEdge('a', 'b')
    .setSessionManager(new FileSessionManager({ sessionId: 'orig', storageDir }))
    .build();
  await graph.invoke('go');
  await graph.fork({ step: 1, to: 'forked' });
  process.stdout.write('forked\\n');
  process.stdin.once('data', () => process.exit(0));
}
const big = 'x'.repeat(384 * 1024);
const sessionManager = new FileSessionManager({ sessionId: 'crash', storageDir });
const model = new ScriptedModel([big], { loop: true, record: false, chunkSize: 1 << 20 });
const agent = new Agent({ model, conversationManager: new NullConversationManager(), sessionManager });
if (mode === 'hold') {
  await agent.invoke('hello from the child');
  process.stdout.write('locked\\n');
  process.stdin.once('data', () => process.exit(0));
} else if (mode === 'crash') {
  for (let i = 0; ; i++) {
    await agent.invoke(big);
    if (i === 1) process.stdout.write('writing\\n');
  }
}
`;

function startChild(mode: 'crash' | 'hold' | 'fork'): ChildProcess {
  return spawn(process.execPath, ['--conditions=@skein/source', '--import', 'tsx', script, dir, mode], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function waitFor(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(line)) resolve();
    });
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before "${line}": ${err}`)));
  });
}

const exited = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );

async function allJsonParses(root: string): Promise<{ files: number; temps: number }> {
  const names = await fs.readdir(root, { recursive: true });
  let files = 0;
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    JSON.parse(await fs.readFile(path.join(root, name), 'utf8')); // throws on a torn file
    files++;
  }
  return { files, temps: names.filter((n) => n.endsWith('.tmp')).length };
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-session-file-'));
  script = path.join(dir, 'child.mts');
  await fs.writeFile(script, CHILD);
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('FileSessionRepository with real processes', () => {
  it('survives SIGKILL in the middle of writing large messages: every file parses, the session restores and continues', async () => {
    let previous = 0;
    for (let round = 0; round < 3; round++) {
      const child = startChild('crash');
      await waitFor(child, 'writing');
      await new Promise((r) => setTimeout(r, 20 + Math.floor(Math.random() * 150)));
      child.kill('SIGKILL');
      await exited(child);

      const { files, temps } = await allJsonParses(path.join(dir, 'session_crash'));
      expect(files).toBeGreaterThan(previous);
      expect(temps).toBeLessThanOrEqual(1); // at most the write the kill interrupted
      const sessionManager = new FileSessionManager({ sessionId: 'crash', storageDir: dir });
      const agent = new Agent({
        model: new ScriptedModel(['back']),
        conversationManager: new NullConversationManager(),
        sessionManager,
      });
      await agent.initialize();
      expect(agent.messages.length).toBeGreaterThan(previous);
      for (const m of agent.messages) expect(messageText(m)).toMatch(/^(x{393216}|back|round \d)$/);
      await agent.invoke(`round ${round}`); // takes over the dead writer's lock, and removes its temp files
      expect((await allJsonParses(path.join(dir, 'session_crash'))).temps).toBe(0);
      previous = agent.messages.length;
      await sessionManager.close();
    }
  }, 120_000);

  it('refuses a second process while the first holds the session, and lets it in after the first exits', async () => {
    const child = startChild('hold');
    await waitFor(child, 'locked');
    const lockFile = path.join(dir, 'session_crash/.skein.lock');
    expect(JSON.parse(await fs.readFile(lockFile, 'utf8'))).toMatchObject({ pid: child.pid, host: os.hostname() });

    const loser = new FileSessionManager({ sessionId: 'crash', storageDir: dir });
    const agent = new Agent({
      model: new ScriptedModel(['never']),
      conversationManager: new NullConversationManager(),
      sessionManager: loser,
    });
    const error = await agent.invoke('me too').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionConflictError);
    expect(String(error)).toContain(`process ${child.pid}`);
    await loser.close();

    child.stdin?.write('bye\n');
    await exited(child);
    await expect(fs.stat(lockFile)).rejects.toThrow(/ENOENT/); // released at process exit
    const winner = new FileSessionManager({ sessionId: 'crash', storageDir: dir });
    const next = new Agent({
      model: new ScriptedModel(['ok']),
      conversationManager: new NullConversationManager(),
      sessionManager: winner,
    });
    await next.invoke('my turn');
    expect(messageText(next.messages.at(-3)!)).toBe(
      messageText({ role: 'assistant', content: [{ text: 'x'.repeat(384 * 1024) }] }),
    );
    await winner.close();
  }, 60_000);

  it('a fork made by another process that is still running is a session like any other: this process runs it (issue 46)', async () => {
    const child = startChild('fork');
    await waitFor(child, 'forked');
    const sessionManager = new FileSessionManager({ sessionId: 'forked', storageDir: dir });
    const graph = new GraphBuilder()
      .setId('pair')
      .addNode(new Agent({ name: 'a', model: new ScriptedModel(['never']) }))
      .addNode(new Agent({ name: 'b', model: new ScriptedModel(['B again']) }))
      .addEdge('a', 'b')
      .setSessionManager(sessionManager)
      .build();
    try {
      const result = await graph.invoke('continue');
      expect(result.status).toBe('completed');
      expect(result.results['a']?.text).toBe('A');
      expect(result.results['b']?.text).toBe('B again');
    } finally {
      await sessionManager.close();
      child.stdin?.write('bye\n');
      await exited(child);
    }
  }, 60_000);
});
