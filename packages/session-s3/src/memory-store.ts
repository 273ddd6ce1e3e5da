import { PutObjectCommand } from '@aws-sdk/client-s3';
import {
  checkMemoryId,
  type JsonObject,
  type MemoryDocument,
  type MemoryMessage,
  type MemoryStore,
  nowIso,
} from '@skein/core';
import { toSessionError } from './errors.js';
import { S3ObjectStore } from './object-store.js';
import { resolveS3Options, type S3SessionRepositoryOptions } from './options.js';

/** Options of {@link S3MemoryStore}: the bucket and prefix (the sessions' or others) and the client. */
export type S3MemoryStoreOptions = Omit<S3SessionRepositoryOptions, 'leaseTtlMs' | 'takeover'>;

const VERSION = /\/v(\d{12})\.json$/;
const padded = (n: number, width: number): string => String(n).padStart(width, '0');

/**
 * Long-term memory in S3 beside the sessions: `<prefix>/memory/resource_<id>/documents/<key>/v<n>.json`
 * (each version created once with `If-None-Match: *`: two writers of one version cannot both
 * succeed) and `messages/thread_<id>/<seq>.json`, one object per message. Search is done by `Memory`
 * in memory. `forget` deletes every object under the resource's prefix.
 */
export class S3MemoryStore implements MemoryStore {
  readonly label: string;
  readonly #store: S3ObjectStore;
  readonly #base: string;
  readonly #ownsClient: boolean;

  constructor(options: S3MemoryStoreOptions) {
    const resolved = resolveS3Options(options, 'S3MemoryStore');
    this.#store = new S3ObjectStore(resolved.client, resolved.bucket);
    this.#ownsClient = resolved.ownsClient;
    const prefix = resolved.prefix.replace(/\/+$/, '');
    this.#base = `${prefix ? `${prefix}/` : ''}memory/`;
    this.label = `s3://${resolved.bucket}/${prefix}`;
  }

  #key(resource: string, ...rest: string[]): string {
    checkMemoryId(resource, 'resource');
    return `${this.#base}resource_${resource}/${rest.join('/')}`;
  }

  async readDocument(resource: string, key: string): Promise<MemoryDocument | undefined> {
    checkMemoryId(key, 'document key');
    const dir = this.#key(resource, 'documents', key, '');
    for (let tries = 0; tries < 5; tries++) {
      const latest = Math.max(0, ...(await this.#store.list(dir)).map((k) => Number(VERSION.exec(k)?.[1] ?? 0)));
      if (latest === 0) return undefined;
      const text = await this.#store.get(`${dir}v${padded(latest, 12)}.json`);
      if (text === undefined) continue; // a newer version replaced it meanwhile: look again
      const stored = JSON.parse(text) as { value: JsonObject; updatedAt: string };
      return { key, value: stored.value, version: latest, updatedAt: stored.updatedAt };
    }
    return undefined;
  }

  async writeDocument(resource: string, key: string, value: JsonObject, expected: number): Promise<boolean> {
    checkMemoryId(key, 'document key');
    const dir = this.#key(resource, 'documents', key, '');
    if (((await this.readDocument(resource, key))?.version ?? 0) !== expected) return false;
    const body = JSON.stringify({ value, updatedAt: nowIso() });
    if (!(await this.#store.create(`${dir}v${padded(expected + 1, 12)}.json`, body))) return false;
    if (expected > 0) await this.#store.deleteKeys([`${dir}v${padded(expected, 12)}.json`]);
    return true;
  }

  async listDocuments(resource: string): Promise<MemoryDocument[]> {
    const dir = this.#key(resource, 'documents', '');
    const keys = new Set((await this.#store.list(dir)).map((k) => k.slice(dir.length).split('/')[0] ?? ''));
    const docs = await Promise.all([...keys].sort().map((k) => this.readDocument(resource, k)));
    return docs.filter((d): d is MemoryDocument => d !== undefined);
  }

  async putMessages(resource: string, messages: readonly MemoryMessage[]): Promise<void> {
    for (const m of messages) checkMemoryId(m.thread, 'thread');
    const keys = messages.map((m) =>
      this.#key(resource, 'messages', `thread_${m.thread}`, `${padded(m.seq, 20)}.json`),
    );
    await Promise.all(
      messages.map(async (m, i) => {
        try {
          await this.#store.client.send(
            new PutObjectCommand({
              Bucket: this.#store.bucket,
              Key: keys[i],
              Body: JSON.stringify(m),
              ContentType: 'application/json',
            }),
          );
        } catch (error) {
          throw toSessionError(error, { bucket: this.#store.bucket, key: keys[i] ?? '', action: 'write' });
        }
      }),
    );
  }

  async #read(keys: readonly string[]): Promise<MemoryMessage[]> {
    const texts = await Promise.all(keys.map((k) => this.#store.get(k)));
    return texts.filter((t): t is string => t !== undefined).map((t) => JSON.parse(t) as MemoryMessage);
  }

  async listMessages(resource: string): Promise<MemoryMessage[]> {
    const keys = (await this.#store.list(this.#key(resource, 'messages', ''))).sort();
    return this.#read(keys);
  }

  async readAround(
    resource: string,
    thread: string,
    seq: number,
    before: number,
    after: number,
  ): Promise<MemoryMessage[]> {
    checkMemoryId(thread, 'thread');
    const keys = (await this.#store.list(this.#key(resource, 'messages', `thread_${thread}`, ''))).sort();
    const at = keys.findIndex((k) => k.endsWith(`/${padded(seq, 20)}.json`));
    return at < 0 ? [] : this.#read(keys.slice(Math.max(0, at - before), at + after + 1));
  }

  async listResources(): Promise<string[]> {
    const found = new Set<string>();
    for (const key of await this.#store.list(`${this.#base}resource_`)) {
      const id = /^resource_([^/]+)\//.exec(key.slice(this.#base.length))?.[1];
      if (id) found.add(id);
    }
    return [...found].sort();
  }

  async forget(resource: string): Promise<void> {
    await this.#store.deleteKeys(await this.#store.list(this.#key(resource, '')));
  }

  async close(): Promise<void> {
    if (this.#ownsClient) this.#store.client.destroy();
  }
}
