import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from './errors.js';

/** `create`: fail with `EEXIST` when the file exists; `replace`: write over it. */
export type WriteMode = 'create' | 'replace';

/** Flushes a directory's entries (a rename or link in it) to disk; a no-op where directories cannot be synced. */
export async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'EBADF') throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * Writes `text` to `file` so that a crash at any point leaves either the old file (or none) or the
 * new one, never a part: a temp file in the same directory (its name starts with a dot, so listings
 * of `message_*.json` never see it), fsync, then `rename` over the target (`replace`) or `link` to it
 * (`create`, which fails with `EEXIST` instead of overwriting), then fsync of the directory.
 */
export async function writeFileAtomic(file: string, text: string, mode: WriteMode): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'wx', 0o644);
  let placed = false;
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (mode === 'replace') await fs.rename(tmp, file);
    else {
      await linkOrRename(tmp, file);
      await fs.unlink(tmp).catch(() => undefined);
    }
    placed = true;
    await syncDir(dir);
  } finally {
    if (!placed) await fs.unlink(tmp).catch(() => undefined);
  }
}

/** Create-if-absent: `link` is atomic and refuses an existing target; file systems without hard links fall back to check-then-rename. */
async function linkOrRename(tmp: string, file: string): Promise<void> {
  try {
    await fs.link(tmp, file);
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    const exists = await fs.lstat(file).then(
      () => true,
      () => false,
    );
    if (exists)
      throw Object.assign(new Error(`EEXIST: file already exists, link '${tmp}' -> '${file}'`), { code: 'EEXIST' });
    await fs.rename(tmp, file); // the session lock keeps other writers out
  }
}
