/** The radosgw (S3) server of the full tier, shared by every file of the run. */
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { startRgwServer, type RgwCredentials, type RgwServer } from '@skein/session-s3/testing';
import { inject } from 'vitest';
import './provided.js';

/** What a test needs to reach the shared radosgw (JSON, provided by the global setup). */
export interface RgwInfo {
  endpoint: string;
  region: string;
  credentials: RgwCredentials;
  otherCredentials: RgwCredentials;
}

/** An `RgwServer` for a server started elsewhere: the same clients and buckets; `stop()` leaves it running. */
function rgwServerAt(info: RgwInfo): RgwServer {
  const clientConfig = (creds: RgwCredentials = info.credentials): S3ClientConfig => ({
    endpoint: info.endpoint,
    region: info.region,
    credentials: { ...creds },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    ...info,
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
    stop: async () => undefined,
  };
}

/**
 * The run's radosgw (started once by the full tier's global setup), or one of this file's own when the
 * file runs outside the full project. Make your own bucket (`createBucket`); `stop()` stops only a
 * server this call started.
 */
export async function rgwServer(): Promise<RgwServer> {
  const info = inject('rgw');
  return info ? rgwServerAt(info) : startRgwServer();
}
