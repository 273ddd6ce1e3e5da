import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileMemoryStore } from '@skein/session-file';
import { memoryStoreContract, trackedMemoryStorage } from './memory-store-contract.js';

memoryStoreContract({
  name: 'file',
  sharedWriters: true,
  async fresh() {
    const storageDir = await mkdtemp(join(tmpdir(), 'skein-contract-memory-file-'));
    return trackedMemoryStorage(
      () => new FileMemoryStore({ storageDir }),
      async (needle) => {
        for (const entry of await readdir(storageDir, { recursive: true, withFileTypes: true }))
          if (entry.isFile() && (await readFile(join(entry.parentPath, entry.name), 'utf8')).includes(needle))
            return true;
        return false;
      },
      () => rm(storageDir, { recursive: true, force: true }),
    );
  },
});
