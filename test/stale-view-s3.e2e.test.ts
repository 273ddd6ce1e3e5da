import { S3SessionManager, S3SessionRepository } from '@skein/session-s3';
import { startRgwServer, type RgwServer } from '@skein/session-s3/testing';
import { afterAll, beforeAll } from 'vitest';
import { staleViewScenarios } from './stale-view.scenarios.js';

// Issue 30 on S3 (the real radosgw): every writer is an S3SessionManager with its own repository and client, as two processes would be.
let server: RgwServer;
let bucket = '';
const open: { destroy(): void }[] = [];

beforeAll(async () => {
  server = await startRgwServer();
  bucket = await server.createBucket('skein-stale-view');
}, 600_000);

afterAll(async () => {
  for (const o of open) o.destroy();
  await server?.stop();
}, 120_000);

staleViewScenarios({
  manager: (sessionId) => {
    // A client of our own, so that release() (which keeps it) and close() (which destroys it) both leave the reader working.
    const m = new S3SessionManager({ sessionId, bucket, prefix: 'stale', client: server.client() });
    open.push({ destroy: () => m.repository.client.destroy() });
    return m;
  },
  reader: () => {
    const r = new S3SessionRepository({ bucket, prefix: 'stale', clientConfig: server.clientConfig() });
    open.push(r);
    return r;
  },
});
