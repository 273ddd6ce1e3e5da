import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Debian package that provides the test server. */
export const POSTGRES_PACKAGE = 'postgresql';

/** The directory of the newest installed PostgreSQL server binaries (`/usr/lib/postgresql/<n>/bin`), if any. */
async function findBinDir(): Promise<string | undefined> {
  const versions = await readdir('/usr/lib/postgresql').catch(() => [] as string[]);
  const newest = versions
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .find(() => true);
  return newest === undefined ? undefined : join('/usr/lib/postgresql', newest, 'bin');
}

/**
 * Returns the directory of PostgreSQL's server binaries (`initdb`, `postgres`), installing Debian's
 * `postgresql` with apt-get when they are missing (as root, or through passwordless sudo; one lock
 * file so parallel test files do not race apt). Throws with the command to run by hand when it cannot.
 */
export async function ensurePostgresInstalled(): Promise<string> {
  const found = await findBinDir();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = isRoot ? '' : 'sudo -n ';
  const apt = `${sudo}env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q`;
  const script = `ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { ${apt} update && ${apt} install -y ${POSTGRES_PACKAGE}; }`;
  try {
    await run('flock', ['/tmp/skein-session-postgres-apt.lock', 'sh', '-c', script], {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 900_000,
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The PostgreSQL test server needs the Debian package ${POSTGRES_PACKAGE} and installing it failed (${detail.slice(0, 2000)}). Install it by hand: sudo apt-get update && sudo apt-get install -y ${POSTGRES_PACKAGE}`,
      { cause: error },
    );
  }
  const installed = await findBinDir();
  if (!installed) throw new Error('apt-get finished but /usr/lib/postgresql/<version>/bin is still missing.');
  return installed;
}
