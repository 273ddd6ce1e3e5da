import type { S3Client } from '@aws-sdk/client-s3';
import { openFileStore } from './file-store.js';
import type { InspectorStore } from './inspector-store.js';
import { openS3Store } from './s3-store.js';

/** Opens `<dir>` or `s3://bucket/prefix` for reading. */
export function openStore(
  spec: string,
  options: { s3Client?: S3Client; env?: NodeJS.ProcessEnv } = {},
): InspectorStore {
  return spec.startsWith('s3://') ? openS3Store(spec, options.s3Client, options.env) : openFileStore(spec);
}
