import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CreateBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { ensureRadosgwInstalled } from './rgw-install.js';

const run = promisify(execFile);
const scripts = fileURLToPath(new URL('../../scripts/', import.meta.url));

/** Credentials of one S3 user of the test server. */
export interface RgwCredentials {
  /** The access key id. */
  accessKeyId: string;
  /** The secret access key. */
  secretAccessKey: string;
}

/** A running throwaway Ceph RADOS Gateway on 127.0.0.1 (see {@link startRgwServer}). */
export interface RgwServer {
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  /** The region to sign for (any works; `us-east-1`). */
  readonly region: string;
  /** The user that owns the buckets made with {@link RgwServer.createBucket}. */
  readonly credentials: RgwCredentials;
  /** A second user with no rights on those buckets (for AccessDenied tests). */
  readonly otherCredentials: RgwCredentials;
  /** Client options for this server (path-style, checksums only when required). */
  clientConfig(credentials?: RgwCredentials): S3ClientConfig;
  /** A new client for this server; call `destroy()` on it when done. */
  client(credentials?: RgwCredentials): S3Client;
  /** Creates a bucket with a unique name starting with `prefix` and returns the name. */
  createBucket(prefix?: string): Promise<string>;
  /** Stops the daemons and removes the temp dir. Safe to call twice. */
  stop(): Promise<void>;
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
async function startWatchdog(dir: string): Promise<() => void> {
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
 * Starts a real S3-compatible server for tests: Ceph's RADOS Gateway from Debian (installed with
 * apt-get when missing) over a one-monitor, one-OSD cluster that keeps data in memory, in a fresh temp
 * dir, on free ports of 127.0.0.1. It checks SigV4 signatures and honours conditional writes.
 * Takes ~2-3 s (plus ~20 s the first time, to install). Call `stop()` when done.
 * @example
 * const server = await startRgwServer();
 * const bucket = await server.createBucket();
 * const repository = new S3SessionRepository({ bucket, clientConfig: server.clientConfig() });
 * await server.stop();
 */
export async function startRgwServer(): Promise<RgwServer> {
  await ensureRadosgwInstalled();
  const credentials = {
    accessKeyId: `SKEIN${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(24).toString('hex'),
  };
  const otherCredentials = {
    accessKeyId: `OTHER${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(24).toString('hex'),
  };
  const stopScript = join(scripts, 'rgw-stop.sh');
  // Several test files start clusters at once: a port taken between choosing and binding it, or a
  // monitor that is slow under load, fails one start; a fresh directory and fresh ports then work.
  let dir = '';
  let rgwPort = 0;
  for (let attempt = 1; ; attempt++) {
    dir = await mkdtemp(join(tmpdir(), 'skein-session-s3-'));
    const monPort = await freePort();
    rgwPort = await freePort();
    try {
      await run(
        'bash',
        [
          join(scripts, 'rgw-start.sh'),
          dir,
          String(monPort),
          String(rgwPort),
          credentials.accessKeyId,
          credentials.secretAccessKey,
          otherCredentials.accessKeyId,
          otherCredentials.secretAccessKey,
        ],
        { timeout: 180_000 },
      );
      break;
    } catch (error) {
      const logs = await logTail(dir);
      await run('bash', [stopScript, dir]).catch(() => undefined);
      if (attempt < 3) continue;
      throw new Error(
        `The radosgw test server did not start (3 attempts): ${error instanceof Error ? error.message : String(error)}\n${logs}`,
        {
          cause: error,
        },
      );
    }
  }
  const stopWatchdog = await startWatchdog(dir);
  const endpoint = `http://127.0.0.1:${rgwPort}`;
  const region = 'us-east-1';
  let stopped: Promise<void> | undefined;
  const clientConfig = (creds: RgwCredentials = credentials): S3ClientConfig => ({
    endpoint,
    region,
    credentials: { ...creds },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    region,
    credentials,
    otherCredentials,
    clientConfig,
    client: (creds) => new S3Client(clientConfig(creds)),
    async createBucket(prefix = 'skein-test') {
      const bucket = `${prefix}-${randomBytes(6).toString('hex')}`;
      const client = new S3Client(clientConfig());
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
      } finally {
        client.destroy();
      }
      return bucket;
    },
    stop() {
      stopped ??= (async () => {
        stopWatchdog();
        await run('bash', [stopScript, dir], { timeout: 60_000 });
      })();
      return stopped;
    },
  };
}
