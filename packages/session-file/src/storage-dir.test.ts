import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '@skein/core';
import { FileSessionManager } from './index.js';

// Found by the bad-input fuzz (test/reliability): a storageDir below a file threw the raw ENOTDIR of
// the constructor's stat, not a skein error.

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-storage-dir-'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

describe('FileSessionManager storageDir', () => {
  it('below a file is a ConfigurationError naming it', async () => {
    await fs.writeFile(path.join(dir, 'notes.txt'), 'x');
    const storageDir = path.join(dir, 'notes.txt', 'sessions');
    const build = (): FileSessionManager => new FileSessionManager({ sessionId: 's', storageDir });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(`storageDir ${storageDir} cannot be used (a part of the path is a file)`);
  });
});
