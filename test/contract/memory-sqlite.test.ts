import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteMemoryStore } from '@skein/session-sqlite';
import { memoryStoreContract, trackedMemoryStorage } from './memory-store-contract.js';

memoryStoreContract({
  name: 'sqlite',
  sharedWriters: true,
  async fresh() {
    const dir = await mkdtemp(join(tmpdir(), 'skein-contract-memory-sqlite-'));
    const path = join(dir, 'desk.db');
    return trackedMemoryStorage(
      () => new SqliteMemoryStore({ path }),
      // Every byte of the database and its WAL: rows, free pages, the full-text index.
      async (needle) => {
        for (const file of [path, `${path}-wal`])
          if (existsSync(file) && (await readFile(file)).includes(Buffer.from(needle))) return true;
        return false;
      },
      () => rm(dir, { recursive: true, force: true }),
    );
  },
});
