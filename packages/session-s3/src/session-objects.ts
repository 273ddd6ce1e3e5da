/**
 * The session's objects as the repository writes them: creates that never overwrite (`If-None-Match`),
 * replaces that never overwrite another writer's change (`If-Match`), reads, listings of numbered keys,
 * and the errors that say which object and what to do.
 */
import { serializeSessionData, SessionConflictError, SessionCorruptError, SessionNotFoundError } from '@skein/core';
import { numberedKey, type S3Keys } from './keys.js';
import type { S3ObjectStore } from './object-store.js';

/** Checked reads and writes of one bucket's session objects. */
export class SessionObjects {
  readonly #store: S3ObjectStore;
  readonly #keys: S3Keys;
  readonly #bucket: string;

  constructor(store: S3ObjectStore, keys: S3Keys, bucket: string) {
    this.#store = store;
    this.#keys = keys;
    this.#bucket = bucket;
  }

  url(key: string): string {
    return `s3://${this.#bucket}/${key}`;
  }

  async create(key: string, value: unknown, what: string): Promise<void> {
    if (!(await this.#store.create(key, serializeSessionData(value)))) {
      throw new SessionConflictError(
        `${what} already exists at ${this.url(key)}; another writer created it. Nothing was overwritten.`,
        {
          location: this.url(key),
        },
      );
    }
  }

  async replace(key: string, value: unknown, what: string): Promise<void> {
    const outcome = await this.#store.replace(key, serializeSessionData(value));
    if (outcome === 'missing')
      throw new SessionNotFoundError(`${what} does not exist at ${this.url(key)}; create it first.`, {
        location: this.url(key),
      });
    if (outcome === 'changed') {
      throw new SessionConflictError(
        `${what} at ${this.url(key)} was changed by another writer since this process read it; nothing was overwritten. Reopen the session to continue from what is stored.`,
        { location: this.url(key) },
      );
    }
  }

  async requireSession(sessionId: string): Promise<void> {
    const key = this.#keys.session(sessionId);
    if ((await this.#store.head(key)) === undefined) {
      throw new SessionNotFoundError(`Session ${sessionId} does not exist (no ${this.url(key)}); create it first.`, {
        location: this.url(key),
      });
    }
  }

  async read<T>(key: string, parse: (text: string, location: string) => T): Promise<T | undefined> {
    const text = await this.#store.get(key);
    return text === undefined ? undefined : parse(text, this.url(key));
  }

  /** The numbers `n` of the keys `<dir><stem>_<n>.json`, ascending. */
  async numbered(dir: string, stem: string): Promise<number[]> {
    const ids: number[] = [];
    for (const key of await this.#store.list(dir)) {
      const id = numberedKey(key, dir, stem);
      if (id !== undefined) ids.push(id);
    }
    return ids.sort((a, b) => a - b);
  }

  missing(key: string, what: string, nextStored?: number): never {
    const next = nextStored === undefined ? '' : ` (the next one stored is ${nextStored})`;
    throw new SessionCorruptError(
      `The session is missing ${what}: ${this.url(key)} does not exist${next}. Restore that object from a backup, or delete the objects after it to truncate the history.`,
      {
        location: this.url(key),
      },
    );
  }
}
