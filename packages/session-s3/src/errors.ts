import { SessionError, SessionNotFoundError } from '@skein/core';

/** What a request was doing, which decides the IAM permission it needed. */
type S3Action = 'read' | 'write' | 'list' | 'delete';

const PERMISSION: Record<S3Action, string> = {
  read: 's3:GetObject',
  write: 's3:PutObject',
  list: 's3:ListBucket',
  delete: 's3:DeleteObject',
};

const VERB: Record<S3Action, string> = { read: 'reading', write: 'writing', list: 'listing', delete: 'deleting' };

/** Where a failed request pointed. */
export interface S3Target {
  bucket: string;
  /** The key, or the key prefix of a listing or batch delete. */
  key?: string;
  action: S3Action;
}

interface S3ErrorShape {
  name?: unknown;
  code?: unknown;
  Code?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

/** The S3 error code (`NoSuchKey`, `PreconditionFailed`, ...) of an SDK error, or the error's name. */
function s3ErrorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const e = error as S3ErrorShape;
  for (const candidate of [e.Code, e.name, e.code]) {
    if (typeof candidate === 'string' && candidate !== '' && candidate !== 'Error' && candidate !== 'UnknownError')
      return candidate;
  }
  return 'Error';
}

/** The HTTP status of an SDK error, when S3 answered. */
function s3Status(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as S3ErrorShape).$metadata?.httpStatusCode;
  return typeof status === 'number' ? status : undefined;
}

/** True for "the object is not there" (GetObject's NoSuchKey, HeadObject's bare 404). */
export function isMissingKey(error: unknown): boolean {
  const code = s3ErrorCode(error);
  return code === 'NoSuchKey' || (code === 'NotFound' && s3Status(error) === 404);
}

/** True when a conditional request's precondition failed (412). */
export function isPreconditionFailed(error: unknown): boolean {
  return s3Status(error) === 412 || s3ErrorCode(error) === 'PreconditionFailed';
}

function describe(target: S3Target): string {
  return target.key === undefined ? `bucket "${target.bucket}"` : `s3://${target.bucket}/${target.key}`;
}

/**
 * Turns an S3 SDK error into a session error that names the bucket and key: a missing bucket is a
 * `SessionNotFoundError`; AccessDenied names the permission the credentials lack.
 */
export function toSessionError(error: unknown, target: S3Target): SessionError {
  const code = s3ErrorCode(error);
  const status = s3Status(error);
  const where = describe(target);
  const location = target.key === undefined ? target.bucket : `s3://${target.bucket}/${target.key}`;
  if (code === 'NoSuchBucket') {
    return new SessionNotFoundError(
      `S3 bucket "${target.bucket}" does not exist (while ${VERB[target.action]} ${where}); create the bucket or fix the bucket option.`,
      { cause: error, location: target.bucket },
    );
  }
  if (code === 'AccessDenied' || code === 'AllAccessDisabled' || (status === 403 && code === 'Forbidden')) {
    const resource =
      target.action === 'list' ? `arn:aws:s3:::${target.bucket}` : `arn:aws:s3:::${target.bucket}/${target.key ?? '*'}`;
    return new SessionError(
      `S3 denied ${VERB[target.action]} ${where} (${code}): the credentials need ${PERMISSION[target.action]} on ${resource}. A session store needs s3:GetObject, s3:PutObject, s3:DeleteObject and s3:ListBucket.`,
      { cause: error, location },
    );
  }
  if (code === 'InvalidAccessKeyId' || code === 'SignatureDoesNotMatch' || code === 'ExpiredToken') {
    return new SessionError(
      `S3 rejected the credentials while ${VERB[target.action]} ${where} (${code}); check the access key, secret and region.`,
      {
        cause: error,
        location,
      },
    );
  }
  const message =
    typeof (error as S3ErrorShape | null)?.message === 'string'
      ? String((error as S3ErrorShape).message)
      : String(error);
  if (status === undefined) {
    return new SessionError(
      `Could not reach S3 while ${VERB[target.action]} ${where}: ${message}; check the endpoint, region and network.`,
      {
        cause: error,
        location,
      },
    );
  }
  return new SessionError(
    `S3 failed ${VERB[target.action]} ${where}: ${code} (HTTP ${status}) ${message === code ? '' : message}`.trim(),
    {
      cause: error,
      location,
    },
  );
}
