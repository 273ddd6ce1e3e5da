import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { startCluster, startWatchdog, stopCluster } from './rgw-cluster.js';
import { ensureRadosgwInstalled } from './rgw-install.js';

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
  const { dir, rgwPort } = await startCluster(credentials, otherCredentials);
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
        await stopCluster(dir, 60_000);
      })();
      return stopped;
    },
  };
}
