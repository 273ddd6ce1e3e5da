import { randomBytes } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { S3MemoryStore } from '@skein/session-s3';
import type { RgwServer } from '@skein/session-s3/testing';
import { afterAll, beforeAll } from 'vitest';
import { rgwServer } from '../servers/index.js';
import { memoryStoreContract, trackedMemoryStorage } from './memory-store-contract.js';

// The full tier's S3 server (radosgw); this file's own bucket, each test its own prefix.
let server: RgwServer;
let bucket: string;
let raw: S3Client;
beforeAll(async () => {
  server = await rgwServer();
  bucket = await server.createBucket('skein-memory');
  raw = server.client();
}, 600_000);
afterAll(async () => {
  raw?.destroy();
  await server?.stop();
}, 120_000);

memoryStoreContract({
  name: 's3',
  sharedWriters: true,
  timeoutMs: 60_000,
  async fresh() {
    const prefix = `m-${randomBytes(5).toString('hex')}`;
    return trackedMemoryStorage(
      () => new S3MemoryStore({ bucket, prefix, clientConfig: server.clientConfig() }),
      // Every object under the prefix, body by body.
      async (needle) => {
        const listed = await raw.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/` }));
        for (const item of listed.Contents ?? []) {
          const body = await raw.send(new GetObjectCommand({ Bucket: bucket, Key: item.Key }));
          if ((await body.Body?.transformToString())?.includes(needle)) return true;
        }
        return false;
      },
      async () => undefined,
    );
  },
});
