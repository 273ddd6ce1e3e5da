import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileSessionManager, FileSessionRepository } from '@skein/session-file';
import { afterAll, beforeAll } from 'vitest';
import { staleViewScenarios } from './stale-view.scenarios.js';

// Issue 30 on the file store: every writer is a FileSessionManager with its own repository, as two processes would be.
let dir = '';
const managers: FileSessionManager[] = [];
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-stale-view-'));
});
afterAll(async () => {
  for (const m of managers) await m.close();
  await fs.rm(dir, { recursive: true, force: true });
});

staleViewScenarios({
  manager: (sessionId) => {
    const m = new FileSessionManager({ sessionId, storageDir: dir });
    managers.push(m);
    return m;
  },
  reader: () => new FileSessionRepository({ storageDir: dir }),
});
