import { S3SessionManager } from '@skein/session-s3';
import type { RgwServer } from '@skein/session-s3/testing';
import { rgwServer } from '../../../test/servers/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureIo } from './test-support/capture-io.js';
import { supportGraph } from './test-support/fixtures.js';

// The CLI on an S3 store: the real radosgw the S3 tests start, reached through the AWS environment.
let server: RgwServer;
let bucket: string;

beforeAll(async () => {
  server = await rgwServer();
  bucket = await server.createBucket('skein-inspector');
  const manager = new S3SessionManager({
    sessionId: 'desk-1',
    bucket,
    prefix: 'prod',
    clientConfig: server.clientConfig(),
  });
  await supportGraph(manager).invoke('I was charged twice for order 42');
  manager.destroy();
}, 600_000);

afterAll(async () => {
  await server?.stop();
}, 120_000);

function s3Io(): ReturnType<typeof captureIo> {
  const io = captureIo();
  io.env = {
    AWS_ENDPOINT_URL: server.endpoint,
    AWS_REGION: server.region,
    AWS_ACCESS_KEY_ID: server.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
  };
  return io;
}

describe('skein on s3://bucket/prefix', () => {
  it('lists the sessions under the prefix and shows a run', async () => {
    const list = s3Io();
    expect(await runCli(['sessions', `s3://${bucket}/prod`], list)).toBe(0);
    expect(list.out()).toContain('desk-1  MULTI_AGENT');
    expect(list.out()).toContain('graph support completed  75 tokens');
    const show = s3Io();
    expect(await runCli(['show', `s3://${bucket}/prod`, 'desk-1'], show)).toBe(0);
    expect(show.out()).toMatch(/billing {2}completed .*edge from triage/);
    const agent = s3Io();
    await runCli(['show', `s3://${bucket}/prod`, 'desk-1', '--agent', 'billing'], agent);
    expect(agent.out()).toContain('→ lookup_order({"orderId":"42"})');
  });

  it('says clearly when the location is not an S3 URL or the bucket is wrong', async () => {
    const bad = s3Io();
    expect(await runCli(['sessions', `s3://no-such-bucket-${Date.now()}`], bad)).toBe(1);
    expect(bad.err()).toMatch(
      /skein: Could not list s3:\/\/no-such-bucket-\d+\/: .*HTTP 404.*the bucket does not exist/,
    );
  });
});
