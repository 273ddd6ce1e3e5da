import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileMemoryStore } from '@skein/session-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureIo } from './test-support/capture-io.js';

let dir = '';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo();
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-inspector-memory-'));
  const store = new FileMemoryStore({ storageDir: join(dir, 'files') });
  const at = '2026-01-01T00:00:00.000Z';
  await store.putMessages('ann', [
    { thread: 'c1', seq: 1, role: 'user', text: 'I was charged twice for order 42', at, embedding: [1, 0, 0] },
    { thread: 'c1', seq: 2, role: 'assistant', text: 'I reversed the duplicate charge on invoice INV-42.', at },
  ]);
  await store.writeDocument('ann', 'working@shared', { name: 'Ann' }, 0);
  await store.putMessages('bob', [{ thread: 'c9', seq: 1, role: 'user', text: 'order 7', at }]);
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('skein memory', () => {
  it('lists the resources, and shows one resource: its documents and its messages by conversation', async () => {
    expect((await cli('memory', join(dir, 'files'))).out).toBe('ann\nbob\n');
    const shown = await cli('memory', join(dir, 'files'), 'ann');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('working@shared  v1');
    expect(shown.out).toContain('{"name":"Ann"}');
    expect(shown.out).toContain('conversation c1');
    expect(shown.out).toContain('user: I was charged twice for order 42  [vector: 3 numbers]');
    const json = JSON.parse((await cli('memory', join(dir, 'files'), 'ann', '--json')).out) as {
      threads: Record<string, unknown[]>;
    };
    expect(json.threads['c1']).toHaveLength(2);
    expect((await cli('memory', join(dir, 'files'), '../x')).err).toMatch(/Invalid memory resource/);
  });

  it('sessions copy carries memory into another kind of store; memory forget erases a resource there', async () => {
    const db = join(dir, 'copy.db');
    const copied = await cli('sessions', 'copy', join(dir, 'files'), `sqlite:${db}`);
    expect(copied.code).toBe(0);
    expect(copied.out).toContain('copied the memory of ann');
    expect((await cli('memory', `sqlite:${db}`, 'ann')).out).toContain('assistant: I reversed the duplicate charge');
    expect((await cli('sessions', 'copy', join(dir, 'files'), `sqlite:${db}`)).err).toMatch(
      /already has memory of ann/,
    );
    const forgot = await cli('memory', 'forget', `sqlite:${db}`, 'ann');
    expect(forgot.out).toBe(`Forgot ann in sqlite:${db}: 2 message(s) and 1 document(s) erased.\n`);
    expect((await cli('memory', `sqlite:${db}`)).out).toBe('bob\n');
    expect((await readFile(db)).includes(Buffer.from('charged twice'))).toBe(false);
  });
});
