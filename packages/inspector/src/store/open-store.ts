import type { S3Client } from '@aws-sdk/client-s3';
import { openFileStore } from './file-store.js';
import type { InspectorStore } from './inspector-store.js';
import { openS3Store } from './s3-store.js';
import { openPostgresStore, openSqliteStore } from './sql-store.js';

/**
 * Opens a store: `<dir>` or `file:<dir>`, `s3://bucket/prefix`, `sqlite:<file>` or
 * `postgres://user@host:port/database` (`?schema=x` for another schema). Reads never write;
 * `writable` opens an SQLite file that does not exist yet (for `skein sessions copy`).
 */
export function openStore(
  spec: string,
  options: { s3Client?: S3Client; env?: NodeJS.ProcessEnv; writable?: boolean } = {},
): InspectorStore {
  if (spec.startsWith('s3://')) return openS3Store(spec, options.s3Client, options.env);
  if (spec.startsWith('sqlite:')) return openSqliteStore(spec, options.writable === true);
  if (/^postgres(ql)?:\/\//.test(spec)) return openPostgresStore(spec);
  return openFileStore(spec.startsWith('file:') ? spec.slice('file:'.length) : spec);
}
