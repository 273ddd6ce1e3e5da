import fs from 'node:fs/promises';
import path from 'node:path';
import { SessionCorruptError } from '@skein/core';
import { errnoCode, fsError } from './errors.js';

/**
 * Refuses to write through a directory of the store that resolves outside the storage root (a
 * symbolic link to elsewhere, planted or left by a copy): ids are checked before paths are built, but
 * a link inside the root would still lead writes out. Each directory is resolved once (its real path
 * compared with the root's), then remembered; reads are not checked (they change nothing).
 */
export class RootGuard {
  readonly #root: string;
  readonly #checked = new Set<string>();

  constructor(root: string) {
    this.#root = root;
  }

  /** Throws `SessionCorruptError` unless `dir` (or, while it does not exist, its nearest existing parent) resolves inside the root. */
  async check(dir: string): Promise<void> {
    if (this.#checked.has(dir)) return;
    const root = await realpathOrUndefined(this.#root, this.#root);
    if (root === undefined) return; // nothing exists yet: whatever is created goes under the root
    let probe = dir;
    let real = await realpathOrUndefined(probe, this.#root);
    while (real === undefined && probe !== this.#root && path.dirname(probe) !== probe) {
      probe = path.dirname(probe);
      real = await realpathOrUndefined(probe, this.#root);
    }
    if (real === undefined) return;
    const relative = path.relative(root, real);
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
      throw new SessionCorruptError(
        `${probe} leads out of the session storage ${this.#root} (it resolves to ${real} through a symbolic link); nothing was written there. Replace the link with a real directory inside the storage dir.`,
        { location: probe },
      );
    }
    if (probe === dir) this.#checked.add(dir);
  }
}

async function realpathOrUndefined(p: string, root: string): Promise<string | undefined> {
  try {
    return await fs.realpath(p);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw fsError(error, 'read', p, root);
  }
}
