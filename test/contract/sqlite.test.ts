import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteSessionRepository } from '@skein/session-sqlite';
import { sessionContract, trackedStorage } from './session-contract.js';

sessionContract({
  name: 'sqlite',
  sharedWriters: true,
  async fresh() {
    const dir = await mkdtemp(join(tmpdir(), 'skein-contract-sqlite-'));
    const path = join(dir, 'sessions.db');
    return trackedStorage(
      () => new SqliteSessionRepository({ path }),
      () => rm(dir, { recursive: true, force: true }),
      async (sessionId, agentId, messageId) => {
        const db = new Database(path);
        db.prepare('UPDATE skein_messages SET doc = ? WHERE session_id = ? AND agent_id = ? AND message_id = ?').run(
          '{"message": {"role": "user", "content": [',
          sessionId,
          agentId,
          messageId,
        );
        db.close();
      },
      async (sessionId, multiAgentId, nodeId) => {
        const db = new Database(path);
        db.prepare('DELETE FROM skein_nodes WHERE session_id = ? AND multi_agent_id = ? AND node_id = ?').run(
          sessionId,
          multiAgentId,
          nodeId,
        );
        db.close();
      },
    );
  },
});
