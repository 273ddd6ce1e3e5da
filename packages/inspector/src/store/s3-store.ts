import { GetObjectCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { ConfigurationError } from '@skein/core';
import { S3MemoryStore, S3SessionRepository } from '@skein/session-s3';
import { idsWithPrefix, type InspectorStore } from './inspector-store.js';

/** Where an `s3://bucket/prefix` URL points. */
export interface S3Location {
  bucket: string;
  prefix: string;
}

/** Parses `s3://bucket[/prefix]`. */
export function parseS3Url(url: string): S3Location {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!match?.[1])
    throw new ConfigurationError(
      `Not an S3 location: ${JSON.stringify(url)}. Write s3://bucket or s3://bucket/prefix.`,
    );
  return { bucket: match[1], prefix: (match[2] ?? '').replace(/^\/+|\/+$/g, '') };
}

/**
 * The client config from the environment: region from AWS_REGION (default us-east-1), an endpoint from
 * AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL (S3-compatible servers, with path-style addressing).
 */
export function s3ConfigFromEnv(env: NodeJS.ProcessEnv = process.env): S3ClientConfig {
  const endpoint = env['AWS_ENDPOINT_URL_S3'] ?? env['AWS_ENDPOINT_URL'];
  const config: S3ClientConfig = { region: env['AWS_REGION'] ?? env['AWS_DEFAULT_REGION'] ?? 'us-east-1' };
  if (endpoint) Object.assign(config, { endpoint, forcePathStyle: true });
  const accessKeyId = env['AWS_ACCESS_KEY_ID'];
  const secretAccessKey = env['AWS_SECRET_ACCESS_KEY'];
  if (accessKeyId && secretAccessKey) {
    const sessionToken = env['AWS_SESSION_TOKEN'];
    config.credentials = sessionToken
      ? { accessKeyId, secretAccessKey, sessionToken }
      : { accessKeyId, secretAccessKey };
  }
  return config;
}

function listError(error: unknown, bucket: string, prefix: string): Error {
  const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const hint =
    status === 404
      ? 'the bucket does not exist (check its name and AWS_ENDPOINT_URL)'
      : status === 403
        ? 'access denied (the credentials need s3:ListBucket and s3:GetObject)'
        : 'check the bucket, region, credentials and AWS_ENDPOINT_URL';
  return new Error(
    `Could not list s3://${bucket}/${prefix}: ${e.name ?? 'error'}${status ? ` (HTTP ${status})` : ''}: ${hint}.`,
    { cause: error },
  );
}

async function listPrefixes(client: S3Client, bucket: string, prefix: string): Promise<string[]> {
  const names: string[] = [];
  let token: string | undefined;
  do {
    const page = await client
      .send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, Delimiter: '/', ContinuationToken: token }))
      .catch((error: unknown) => {
        throw listError(error, bucket, prefix);
      });
    for (const p of page.CommonPrefixes ?? []) if (p.Prefix) names.push(p.Prefix.slice(prefix.length));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return names;
}

/** Sessions under an S3 prefix. `client` is kept open by the caller when given; else one is made from the environment. */
export function openS3Store(url: string, client?: S3Client, env: NodeJS.ProcessEnv = process.env): InspectorStore {
  const { bucket, prefix } = parseS3Url(url);
  const s3 = client ?? new S3Client(s3ConfigFromEnv(env));
  const repository = new S3SessionRepository({ bucket, prefix, client: s3 });
  const memory = new S3MemoryStore({ bucket, prefix, client: s3 });
  const root = prefix === '' ? '' : `${prefix}/`;
  const session = (id: string): string => `${root}session_${id}/`;
  return {
    label: url,
    repository,
    memory,
    listSessions: async () => idsWithPrefix(await listPrefixes(s3, bucket, root), 'session_'),
    listAgents: async (id) => idsWithPrefix(await listPrefixes(s3, bucket, `${session(id)}agents/`), 'agent_'),
    listMultiAgents: async (id) =>
      idsWithPrefix(await listPrefixes(s3, bucket, `${session(id)}multi_agents/`), 'multi_agent_'),
    readRawMultiAgent: async (id, multiAgentId) => {
      const out = await s3.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: `${session(id)}multi_agents/multi_agent_${multiAgentId}/multi_agent.json`,
        }),
      );
      return JSON.parse((await out.Body?.transformToString()) ?? 'null') as unknown;
    },
    close: async () => {
      // Gives up any lease a write took (skein fork, sessions copy); the client passed in is left open.
      await repository.close();
      await memory.close();
      if (!client) s3.destroy();
    },
  };
}
