import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { row as message, withAgent } from '../../../test/contract/fixtures.js';
import { SqliteSessionRepository } from './index.js';

let dir = '';
let path = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-sqlite-off-loop-'));
  path = join(dir, 'desk.db');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** How many turns of the event loop pass while `write` is pending. */
async function turnsDuring(write: () => Promise<void>): Promise<number> {
  let turns = 0;
  let done = false;
  const spin = (): void => {
    turns++;
    if (!done) setImmediate(spin);
  };
  const pending = write();
  setImmediate(spin);
  await pending;
  done = true;
  return turns;
}

it('at synchronous=FULL the event loop keeps turning while a commit syncs, and the write is durable when acknowledged', async () => {
  const r = new SqliteSessionRepository({ path });
  try {
    await withAgent(r, 's');
    const turns: number[] = [];
    for (let i = 0; i < 5; i++) turns.push(await turnsDuring(() => r.createMessage('s', 'default', message(i))));
    // Before the sync left the event loop, the COMMIT (and its fsync) ran inside one turn, and the
    // write resolved in that turn: at most 2 turns. Now other work runs while the WAL syncs.
    expect(Math.max(...turns)).toBeGreaterThan(2);
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM skein_messages').get()).toEqual({ n: 5 });
    db.close();
  } finally {
    await r.close();
  }
});

it('checkpoints run off the event loop: the WAL is copied into the database file while the writer goes on', async () => {
  const r = new SqliteSessionRepository({ path, synchronous: 'NORMAL' });
  try {
    await withAgent(r, 's');
    const before = (await stat(path)).size;
    // About 3 pages a write: under SQLite's own automatic checkpoint (1,000 pages), over the worker's 200 writes.
    for (let i = 0; i < 260; i++) await r.createMessage('s', 'default', message(i));
    const deadline = Date.now() + 10_000;
    while ((await stat(path)).size === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await stat(path)).size).toBeGreaterThan(before);
  } finally {
    await r.close();
  }
}, 20_000);
