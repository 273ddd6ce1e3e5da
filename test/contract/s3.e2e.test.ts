import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { S3SessionRepository } from '@skein/session-s3';
import { startRgwServer, type RgwServer } from '@skein/session-s3/testing';
import { afterAll, beforeAll } from 'vitest';
import { sessionContract, trackedStorage } from './session-contract.js';

// One real S3 server (radosgw) for the file; each test gets its own prefix.
let server: RgwServer;
let bucket: string;
let raw: S3Client;
beforeAll(async () => {
  server = await startRgwServer();
  bucket = await server.createBucket('skein-contract');
  raw = server.client();
}, 600_000);
afterAll(async () => {
  raw?.destroy();
  await server?.stop();
}, 120_000);

sessionContract({
  name: 's3',
  sharedWriters: true,
  async fresh() {
    const prefix = `t-${randomBytes(5).toString('hex')}`;
    return trackedStorage(
      () => new S3SessionRepository({ bucket, prefix, clientConfig: server.clientConfig() }),
      async () => undefined,
      async (sessionId, agentId, messageId) =>
        void (await raw.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: `${prefix}/session_${sessionId}/agents/agent_${agentId}/messages/message_${messageId}.json`,
            Body: '{"message": {"role": "user", "content": [',
          }),
        )),
      async (sessionId, multiAgentId, nodeId) =>
        void (await raw.send(
          new DeleteObjectCommand({
            Bucket: bucket,
            Key: `${prefix}/session_${sessionId}/multi_agents/multi_agent_${multiAgentId}/nodes/node_${nodeId}.json`,
          }),
        )),
    );
  },
});
