/**
 * What SQLite itself takes to store one step's rows, without skein: the records of a captured
 * `writeBatch` written by plain prepared statements into a database with the store's schema, in one
 * `BEGIN IMMEDIATE ... COMMIT` with the store's pragmas (the lease row read first, as the store does;
 * no existence checks). Each replay gives the rows fresh keys (message ids, node ids, transition
 * numbers), updates go to rows made beforehand.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { SessionWrite } from '@skein/core';
import { SqliteSessionRepository } from '@skein/session-sqlite';

const at = '2026-01-01T00:00:00.000Z';

/** The median ms of `times` replays of `writes` (each as fresh rows) in a new database in `dir`. */
export async function plainStepMs(
  dir: string,
  name: string,
  writes: readonly SessionWrite[],
  times = 31,
): Promise<number> {
  const file = path.join(dir, `plain-${name}.db`);
  const store = new SqliteSessionRepository({ path: file });
  await store.createSession({ session_id: 'p', session_type: 'MULTI_AGENT', created_at: at, updated_at: at });
  await store.close();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const s = (sql: string) => db.prepare(sql);
  const lease = s('SELECT generation, owner, pid, host, expires_at FROM skein_leases WHERE session_id = ?');
  const agent = s(
    'INSERT INTO skein_agents (session_id, agent_id, doc) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET doc = excluded.doc',
  );
  const message = s('INSERT INTO skein_messages (session_id, agent_id, message_id, doc) VALUES (?, ?, ?, ?)');
  const multi = s(
    'INSERT INTO skein_multi_agents (session_id, multi_agent_id, doc) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET doc = excluded.doc',
  );
  const node = s(
    'INSERT INTO skein_nodes (session_id, multi_agent_id, node_id, doc) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET doc = excluded.doc',
  );
  const transition = s('INSERT INTO skein_transitions (session_id, multi_agent_id, seq, doc) VALUES (?, ?, ?, ?)');
  const replay = (i: number): void => {
    let n = 0;
    for (const w of writes) {
      n++;
      if (w.op === 'createAgent' || w.op === 'updateAgent') agent.run('p', w.agent.agent_id, JSON.stringify(w.agent));
      else if (w.op === 'createMessage' || w.op === 'updateMessage')
        message.run('p', w.agentId, i * 100 + n, JSON.stringify(w.message));
      else if (w.op === 'createMultiAgent' || w.op === 'updateMultiAgent')
        multi.run('p', w.multiAgent.id, JSON.stringify(w.multiAgent));
      else if (w.op === 'putNodeEntry') node.run('p', w.multiAgentId, `${w.nodeId}#${i}`, JSON.stringify(w.entry));
      else if (w.op === 'appendTransitions')
        for (const t of w.transitions) transition.run('p', w.multiAgentId, i * 100 + n++, JSON.stringify(t));
    }
  };
  const step = (i: number): number => {
    const t = performance.now();
    db.exec('BEGIN IMMEDIATE');
    lease.get('p');
    replay(i);
    db.exec('COMMIT');
    return performance.now() - t;
  };
  step(0); // the rows that later replays update
  const samples: number[] = [];
  for (let i = 1; i <= times; i++) samples.push(step(i));
  db.close();
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
}

/**
 * The lower bound of a one-row step journal: the step's writes as one JSON row (encoding timed too)
 * in one `BEGIN IMMEDIATE ... COMMIT` with the same pragmas, the lease row read first. The median ms
 * of `times` steps.
 */
export function journalStepMs(dir: string, name: string, writes: readonly SessionWrite[], times = 31): number {
  const db = new Database(path.join(dir, `journal-${name}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    "CREATE TABLE lease (session_id TEXT PRIMARY KEY, generation INTEGER NOT NULL); INSERT INTO lease VALUES ('p', 1);" +
      'CREATE TABLE journal (session_id TEXT NOT NULL, seq INTEGER NOT NULL, batch TEXT NOT NULL, PRIMARY KEY (session_id, seq))',
  );
  const lease = db.prepare('SELECT generation FROM lease WHERE session_id = ?');
  const insert = db.prepare('INSERT INTO journal (session_id, seq, batch) VALUES (?, ?, ?)');
  const samples: number[] = [];
  for (let i = 0; i <= times; i++) {
    const t = performance.now();
    const batch = JSON.stringify(writes);
    db.exec('BEGIN IMMEDIATE');
    lease.get('p');
    insert.run('p', i, batch);
    db.exec('COMMIT');
    if (i > 0) samples.push(performance.now() - t);
  }
  db.close();
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
}
