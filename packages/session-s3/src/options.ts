import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { ConfigurationError } from '@skein/core';

/** Options of {@link S3SessionRepository}. */
export interface S3SessionRepositoryOptions {
  /** The bucket that holds the sessions (it must exist). */
  bucket: string;
  /** Key prefix, e.g. `production` -> `production/session_<id>/...`; default: the bucket root. */
  prefix?: string;
  /** An S3 client to use (you keep ownership: the repository never destroys it). Excludes `region` and `clientConfig`. */
  client?: S3Client;
  /** The AWS region of the client the repository creates when no `client` is given. */
  region?: string;
  /** More options of the client the repository creates (endpoint, credentials, forcePathStyle, ...). */
  clientConfig?: S3ClientConfig;
  /** How many objects are fetched at once when restoring messages or node entries; default 32. */
  readConcurrency?: number;
  /** How long a writer's lease on a session lasts without renewal, in ms; default 15,000 (renewed once half of it is gone, by a heartbeat while the writer is idle). */
  leaseTtlMs?: number;
  /** Take the session's lease even when another writer holds it (you know that writer is gone). Default false. */
  takeover?: boolean;
}

/** Options after validation: a client, and whether the repository owns it. */
export interface ResolvedS3Options {
  bucket: string;
  prefix: string;
  client: S3Client;
  ownsClient: boolean;
  readConcurrency: number;
  leaseTtlMs: number;
  takeover: boolean;
}

const BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/;

function isS3Client(value: unknown): value is S3Client {
  return typeof value === 'object' && value !== null && typeof (value as { send?: unknown }).send === 'function';
}

/** Validates the options and creates the client when none is given. */
export function resolveS3Options(options: S3SessionRepositoryOptions, what: string): ResolvedS3Options {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError(
      `${what} needs an options object: { bucket, prefix?, client? | region?, clientConfig? }.`,
    );
  const {
    bucket,
    prefix = '',
    client,
    region,
    clientConfig,
    readConcurrency = 32,
    leaseTtlMs = 15_000,
    takeover = false,
  } = options;
  if (!Number.isInteger(leaseTtlMs) || leaseTtlMs < 1_000)
    throw new ConfigurationError(
      `${what}: leaseTtlMs must be an integer of at least 1000 ms, got ${JSON.stringify(leaseTtlMs)}.`,
    );
  if (typeof takeover !== 'boolean')
    throw new ConfigurationError(`${what}: takeover must be a boolean, got ${JSON.stringify(takeover)}.`);
  if (typeof bucket !== 'string' || !BUCKET.test(bucket)) {
    throw new ConfigurationError(
      `${what}: bucket must be an S3 bucket name (3-63 letters, digits, dots and hyphens), got ${JSON.stringify(bucket)}.`,
    );
  }
  if (typeof prefix !== 'string' || prefix.split('/').some((part) => part === '..' || part === '.')) {
    throw new ConfigurationError(
      `${what}: prefix must be a string of key segments without "." or "..", got ${JSON.stringify(prefix)}.`,
    );
  }
  if (!Number.isInteger(readConcurrency) || readConcurrency < 1 || readConcurrency > 1000) {
    throw new ConfigurationError(
      `${what}: readConcurrency must be an integer from 1 to 1000, got ${JSON.stringify(readConcurrency)}.`,
    );
  }
  if (client !== undefined) {
    if (!isS3Client(client))
      throw new ConfigurationError(`${what}: client must be an S3Client from @aws-sdk/client-s3.`);
    if (region !== undefined || clientConfig !== undefined) {
      throw new ConfigurationError(
        `${what}: give either client or region/clientConfig, not both (configure the client you pass instead).`,
      );
    }
    return { bucket, prefix, client, ownsClient: false, readConcurrency, leaseTtlMs, takeover };
  }
  if (region !== undefined && (typeof region !== 'string' || region === ''))
    throw new ConfigurationError(`${what}: region must be a non-empty string like "us-east-1".`);
  if (clientConfig !== undefined && (typeof clientConfig !== 'object' || clientConfig === null)) {
    throw new ConfigurationError(`${what}: clientConfig must be an S3ClientConfig object.`);
  }
  const created = new S3Client({
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...clientConfig,
    ...(region === undefined ? {} : { region }),
  });
  return { bucket, prefix, client: created, ownsClient: true, readConcurrency, leaseTtlMs, takeover };
}
