import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Debian packages that provide the test S3 server (Ceph RADOS Gateway, monitor, OSD). */
export const RGW_PACKAGES = ['radosgw', 'ceph-mon', 'ceph-osd'] as const;

const BINARIES = ['radosgw', 'radosgw-admin', 'ceph-mon', 'ceph-osd', 'ceph', 'monmaptool', 'ceph-authtool'];

async function missingBinaries(): Promise<string[]> {
  const found = await Promise.all(
    BINARIES.map((bin) =>
      run('sh', ['-c', `command -v ${bin}`]).then(
        () => true,
        () => false,
      ),
    ),
  );
  return BINARIES.filter((_, i) => !found[i]);
}

/**
 * Installs radosgw, ceph-mon and ceph-osd with apt-get when any of their programs is missing (as root,
 * or through passwordless sudo). Concurrent callers wait on one lock file, so two test files do not
 * race apt. Throws with the command to run by hand when it cannot install.
 */
export async function ensureRadosgwInstalled(): Promise<void> {
  if ((await missingBinaries()).length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = isRoot ? '' : 'sudo -n ';
  const apt = `${sudo}env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q`;
  const script = `command -v radosgw >/dev/null && command -v ceph-osd >/dev/null && command -v ceph-mon >/dev/null || { ${apt} update && ${apt} install -y ${RGW_PACKAGES.join(' ')}; }`;
  try {
    await run('flock', ['/tmp/skein-session-s3-apt.lock', 'sh', '-c', script], {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 900_000,
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The S3 test server needs the Debian packages ${RGW_PACKAGES.join(', ')} and installing them failed (${detail.slice(0, 2000)}). ` +
        `Install them by hand: sudo apt-get update && sudo apt-get install -y ${RGW_PACKAGES.join(' ')}`,
      { cause: error },
    );
  }
  const still = await missingBinaries();
  if (still.length > 0) throw new Error(`apt-get finished but ${still.join(', ')} are still missing from PATH.`);
}
