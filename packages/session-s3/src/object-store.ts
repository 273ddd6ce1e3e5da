import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { SessionError } from '@skein/core';
import { isMissingKey, isPreconditionFailed, toSessionError } from './errors.js';

/** Outcome of a conditional update. */
export type ReplaceOutcome = 'replaced' | 'changed' | 'missing';

const DELETE_BATCH = 1000;

/**
 * JSON objects in one bucket, read and written with conditional requests. Remembers the ETag of every
 * object it last read or wrote, so an update says "only if it is still the version I saw".
 *
 * S3 takes `If-Match` with the quoted ETag; Ceph's radosgw only matches the unquoted form. The store
 * sends the quoted form first; on a 412 whose object still has our ETag it switches form and retries,
 * and keeps the form that worked.
 */
export class S3ObjectStore {
  readonly client: S3Client;
  readonly bucket: string;
  readonly #etags = new Map<string, string>();
  #quoteIfMatch = true;
  #quotingKnown = false;

  constructor(client: S3Client, bucket: string) {
    this.client = client;
    this.bucket = bucket;
  }

  /** The object's text, or `undefined` when the key does not exist. */
  async get(key: string): Promise<string | undefined> {
    return (await this.read(key))?.text;
  }

  /** The object's text and ETag (one GET), or `undefined` when the key does not exist. */
  async read(key: string): Promise<{ text: string; etag: string | undefined } | undefined> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const text = out.Body ? await out.Body.transformToString('utf8') : '';
      this.#remember(key, out.ETag);
      return { text, etag: out.ETag };
    } catch (error) {
      if (isMissingKey(error)) {
        this.#etags.delete(key);
        return undefined;
      }
      throw toSessionError(error, { bucket: this.bucket, key, action: 'read' });
    }
  }

  /** True when this store holds an ETag for `key` (it read or wrote the object). */
  knows(key: string): boolean {
    return this.#etags.has(key);
  }

  /** The ETag this store last read or wrote for `key`. */
  etag(key: string): string | undefined {
    return this.#etags.get(key);
  }

  /**
   * Writes `body` only if `key` does not exist yet (`If-None-Match: *`); false when another body is
   * there. Finding exactly our body counts as written (an SDK retry after a lost answer).
   */
  async create(key: string, body: string): Promise<boolean> {
    try {
      const out = await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentType: 'application/json',
          IfNoneMatch: '*',
        }),
      );
      this.#remember(key, out.ETag);
      return true;
    } catch (error) {
      if (!isPreconditionFailed(error)) throw toSessionError(error, { bucket: this.bucket, key, action: 'write' });
      // The SDK retries a request whose answer was lost; if the first attempt stored our body, that 412 is ours.
      return wasRetried(error) && (await this.get(key)) === body;
    }
  }

  /**
   * Writes `body` over `key` only if the object is still the version `expected` (an ETag), or by
   * default the version this store last read or wrote (`If-Match`). With no version known, the current
   * one is looked up first. Never writes a missing key.
   */
  async replace(key: string, body: string, expected?: string): Promise<ReplaceOutcome> {
    const etag = expected ?? this.#etags.get(key) ?? (await this.head(key));
    if (etag === undefined) return 'missing';
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const ifMatch = this.#quoteIfMatch ? `"${unquote(etag)}"` : unquote(etag);
        const out = await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Body: body,
            ContentType: 'application/json',
            IfMatch: ifMatch,
          }),
        );
        this.#quotingKnown = true;
        this.#remember(key, out.ETag);
        return 'replaced';
      } catch (error) {
        if (s3NoSuchKey(error)) return 'missing';
        if (!isPreconditionFailed(error)) throw toSessionError(error, { bucket: this.bucket, key, action: 'write' });
        const current = await this.head(key);
        if (current === undefined) return 'missing';
        if (unquote(current) !== unquote(etag) || this.#quotingKnown)
          return wasRetried(error) && (await this.get(key)) === body ? 'replaced' : 'changed';
        this.#quoteIfMatch = !this.#quoteIfMatch;
      }
    }
    return 'changed';
  }

  /** The current ETag of `key`, or `undefined` when it does not exist (also remembered). */
  async head(key: string): Promise<string | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      this.#remember(key, out.ETag);
      return out.ETag;
    } catch (error) {
      if (!isMissingKey(error)) throw toSessionError(error, { bucket: this.bucket, key, action: 'read' });
      // HEAD has no body, so a missing bucket also looks like a bare 404: GET tells them apart.
      await this.get(key);
      return undefined;
    }
  }

  /** Every key under `prefix`, following ListObjectsV2 continuation tokens. */
  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      try {
        const out = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            ...(token === undefined ? {} : { ContinuationToken: token }),
          }),
        );
        for (const item of out.Contents ?? []) if (item.Key !== undefined) keys.push(item.Key);
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
      } catch (error) {
        throw toSessionError(error, { bucket: this.bucket, key: prefix, action: 'list' });
      }
    } while (token !== undefined);
    return keys;
  }

  /** Deletes `keys` with DeleteObjects, 1,000 per request; any key S3 could not delete is an error. */
  async deleteKeys(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      let failures: readonly { Key?: string | undefined; Code?: string | undefined; Message?: string | undefined }[];
      try {
        const out = await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        failures = out.Errors ?? [];
      } catch (error) {
        throw toSessionError(error, { bucket: this.bucket, key: batch[0] ?? '', action: 'delete' });
      }
      for (const key of batch) this.#etags.delete(key);
      const first = failures[0];
      if (first) {
        const target = { bucket: this.bucket, key: first.Key ?? '', action: 'delete' as const };
        const shaped = Object.assign(new Error(first.Message ?? first.Code ?? 'delete failed'), {
          name: first.Code ?? 'Error',
          $metadata: { httpStatusCode: 200 },
        });
        const base = toSessionError(shaped, target);
        throw new SessionError(
          `${base.message} (${failures.length} of ${batch.length} keys in this batch were not deleted)`,
          {
            cause: shaped,
            location: base.location ?? this.bucket,
          },
        );
      }
    }
  }

  #remember(key: string, etag: string | undefined): void {
    if (etag) this.#etags.set(key, etag);
    else this.#etags.delete(key);
  }
}

function unquote(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"|"$/g, '');
}

/** True when the SDK sent the request more than once (an earlier attempt may have been applied). */
function wasRetried(error: unknown): boolean {
  const attempts = (error as { $metadata?: { attempts?: unknown } } | null)?.$metadata?.attempts;
  return typeof attempts === 'number' && attempts > 1;
}

function s3NoSuchKey(error: unknown): boolean {
  return isMissingKey(error) && !isPreconditionFailed(error);
}
