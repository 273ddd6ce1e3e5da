import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// Loaded unbuilt by the full tier's global setup: imports node modules (and no workspace package) only.

const run = promisify(execFile);
const scripts = fileURLToPath(new URL('../../scripts/', import.meta.url));
const stopScript = join(scripts, 'rgw-stop.sh');

/** An S3 user's keys, as the start script takes them. */
interface Keys {
  accessKeyId: string;
  secretAccessKey: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function logTail(dir: string): Promise<string> {
  const logs = await readdir(join(dir, 'log')).catch(() => [] as string[]);
  const parts = await Promise.all(
    logs.map(async (name) => {
      const text = await readFile(join(dir, 'log', name), 'utf8').catch(() => '');
      return `--- ${name}\n${text.split('\n').slice(-15).join('\n')}`;
    }),
  );
  return parts.join('\n');
}

/** Kills the daemons if this process dies without calling `stop()`. */
export async function startWatchdog(dir: string): Promise<() => void> {
  const pids = await Promise.all(
    ['client.rgw.a', 'osd.0', 'mon.a'].map((name) =>
      readFile(join(dir, 'run', `${name}.pid`), 'utf8').then((s) => s.trim()),
    ),
  );
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; kill -9 ${pids.join(' ')} 2>/dev/null; rm -rf '${dir}'`;
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  child.unref();
  return () => {
    if (child.pid !== undefined) {
      try {
        process.kill(child.pid);
      } catch {
        // already gone
      }
    }
  };
}

/**
 * Starts the daemons (one monitor, one OSD, radosgw) with the two users in a fresh temp dir on free
 * ports. Several test files may start clusters at once: a port taken between choosing and binding
 * it, or a monitor that is slow under load, fails one start; a fresh directory and fresh ports then
 * work (3 attempts).
 */
export async function startCluster(owner: Keys, other: Keys): Promise<{ dir: string; rgwPort: number }> {
  for (let attempt = 1; ; attempt++) {
    const dir = await mkdtemp(join(tmpdir(), 'skein-session-s3-'));
    const monPort = await freePort();
    const rgwPort = await freePort();
    try {
      await run(
        'bash',
        [
          join(scripts, 'rgw-start.sh'),
          dir,
          String(monPort),
          String(rgwPort),
          owner.accessKeyId,
          owner.secretAccessKey,
          other.accessKeyId,
          other.secretAccessKey,
        ],
        { timeout: 180_000 },
      );
      return { dir, rgwPort };
    } catch (error) {
      const logs = await logTail(dir);
      await stopCluster(dir).catch(() => undefined);
      if (attempt < 3) continue;
      throw new Error(
        `The radosgw test server did not start (3 attempts): ${error instanceof Error ? error.message : String(error)}\n${logs}`,
        {
          cause: error,
        },
      );
    }
  }
}

/** Stops the cluster's daemons and removes its directory. */
export async function stopCluster(dir: string, timeout?: number): Promise<void> {
  await run('bash', [stopScript, dir], timeout === undefined ? {} : { timeout });
}
