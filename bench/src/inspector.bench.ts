/**
 * @skein/inspector: `skein show` (and `--agent`) on a session of 1,000 and 10,000 messages, against a
 * hand-written floor that reads and parses the same files (readdir + readFile + JSON.parse, 32 at a
 * time), and the exported page's size per message.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runCli, loadSession, openFileStore, pageData, renderHtmlPage } from '@skein/inspector';
import { writeLargeSession } from '../../packages/inspector/src/test-support/large-session.js';
import { bestMs, table } from './measure.js';

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-inspector-bench-'));
const sink = {
  stdout: { write: (): boolean => true, isTTY: false },
  stderr: { write: (): boolean => true },
  env: {},
  cwd: root,
};

async function floor(sessionId: string): Promise<number> {
  const dir = path.join(root, `session_${sessionId}`, 'agents', 'agent_desk', 'messages');
  const names = await fs.readdir(dir);
  let count = 0;
  for (let i = 0; i < names.length; i += 32) {
    const docs = await Promise.all(
      names.slice(i, i + 32).map(async (n) => JSON.parse(await fs.readFile(path.join(dir, n), 'utf8')) as unknown),
    );
    count += docs.length;
  }
  return count;
}

const rows: (string | number)[][] = [
  ['messages', 'show ms', 'show --agent ms', 'floor ms', 'show / floor', 'export bytes / message'],
];
for (const n of [1_000, 10_000]) {
  const id = `s${n}`;
  await writeLargeSession(root, id, n);
  const show = await bestMs(() => runCli(['show', root, id], sink), 5);
  const agent = await bestMs(() => runCli(['show', root, id, '--agent', 'desk'], sink), 5);
  const base = await bestMs(() => floor(id), 5);
  const html = renderHtmlPage(pageData(await loadSession(openFileStore(root), id))).length;
  rows.push([n, show, agent, base, `${(show / base).toFixed(2)}x`, Math.round(html / n)]);
}
table(rows);
await fs.rm(root, { recursive: true, force: true });
