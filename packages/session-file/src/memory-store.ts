import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  checkMemoryId,
  type JsonObject,
  type MemoryDocument,
  type MemoryMessage,
  type MemoryStore,
  nowIso,
} from '@skein/core';
import { writeFileAtomic } from './atomic-write.js';

/** Options of {@link FileMemoryStore}. */
export interface FileMemoryStoreOptions {
  /** The sessions' directory (memory goes to its `memory/` folder) or any other. */
  storageDir: string;
}

const isMissing = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'ENOENT';
const VERSION = /^v(\d+)\.json$/;

async function names(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch((error: unknown) => {
    if (isMissing(error)) return [];
    throw error;
  });
}

/**
 * Long-term memory as files beside the sessions: `<storageDir>/memory/resource_<id>/documents/<key>/v<n>.json`
 * (a new version is created, never overwritten: two writers of one version cannot both succeed) and
 * `messages/thread_<id>.json` (one conversation's messages, replaced atomically). Search is done by
 * `Memory` in memory. `forget` removes the resource's folder.
 */
export class FileMemoryStore implements MemoryStore {
  readonly label: string;
  readonly #root: string;

  constructor(options: FileMemoryStoreOptions) {
    this.#root = path.resolve(options.storageDir, 'memory');
    this.label = `file:${path.resolve(options.storageDir)}`;
  }

  #dir(resource: string, ...rest: string[]): string {
    checkMemoryId(resource, 'resource');
    return path.join(this.#root, `resource_${resource}`, ...rest);
  }

  async readDocument(resource: string, key: string): Promise<MemoryDocument | undefined> {
    checkMemoryId(key, 'document key');
    const dir = this.#dir(resource, 'documents', key);
    for (let tries = 0; tries < 5; tries++) {
      const latest = Math.max(0, ...(await names(dir)).map((n) => Number(VERSION.exec(n)?.[1] ?? 0)));
      if (latest === 0) return undefined;
      try {
        const stored = JSON.parse(await fs.readFile(path.join(dir, `v${latest}.json`), 'utf8')) as {
          value: JsonObject;
          updatedAt: string;
        };
        return { key, value: stored.value, version: latest, updatedAt: stored.updatedAt };
      } catch (error) {
        if (!isMissing(error)) throw error; // a newer version replaced it meanwhile: look again
      }
    }
    return undefined;
  }

  async writeDocument(resource: string, key: string, value: JsonObject, expected: number): Promise<boolean> {
    checkMemoryId(key, 'document key');
    const dir = this.#dir(resource, 'documents', key);
    if (((await this.readDocument(resource, key))?.version ?? 0) !== expected) return false;
    await fs.mkdir(dir, { recursive: true });
    try {
      await writeFileAtomic(
        path.join(dir, `v${expected + 1}.json`),
        JSON.stringify({ value, updatedAt: nowIso() }),
        'create',
      );
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EEXIST') return false;
      throw error;
    }
    if (expected > 0) await fs.rm(path.join(dir, `v${expected}.json`), { force: true });
    return true;
  }

  async listDocuments(resource: string): Promise<MemoryDocument[]> {
    const keys = (await names(this.#dir(resource, 'documents'))).sort();
    const docs = await Promise.all(keys.map((k) => this.readDocument(resource, k)));
    return docs.filter((d): d is MemoryDocument => d !== undefined);
  }

  async #thread(resource: string, thread: string): Promise<MemoryMessage[]> {
    checkMemoryId(thread, 'thread');
    try {
      return JSON.parse(
        await fs.readFile(this.#dir(resource, 'messages', `thread_${thread}.json`), 'utf8'),
      ) as MemoryMessage[];
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  async putMessages(resource: string, messages: readonly MemoryMessage[]): Promise<void> {
    this.#dir(resource);
    for (const m of messages) checkMemoryId(m.thread, 'thread');
    const byThread = new Map<string, MemoryMessage[]>();
    for (const m of messages) byThread.set(m.thread, [...(byThread.get(m.thread) ?? []), m]);
    for (const [thread, added] of byThread) {
      const list = (await this.#thread(resource, thread)).filter((m) => !added.some((a) => a.seq === m.seq));
      list.push(...added);
      list.sort((a, b) => a.seq - b.seq);
      const dir = this.#dir(resource, 'messages');
      await fs.mkdir(dir, { recursive: true });
      await writeFileAtomic(path.join(dir, `thread_${thread}.json`), JSON.stringify(list), 'replace');
    }
  }

  async listMessages(resource: string): Promise<MemoryMessage[]> {
    const threads = (await names(this.#dir(resource, 'messages')))
      .map((n) => /^thread_(.+)\.json$/.exec(n)?.[1])
      .filter((t): t is string => t !== undefined)
      .sort();
    return (await Promise.all(threads.map((t) => this.#thread(resource, t)))).flat();
  }

  async readAround(
    resource: string,
    thread: string,
    seq: number,
    before: number,
    after: number,
  ): Promise<MemoryMessage[]> {
    const list = await this.#thread(resource, thread);
    const at = list.findIndex((m) => m.seq === seq);
    return at < 0 ? [] : list.slice(Math.max(0, at - before), at + after + 1);
  }

  async listResources(): Promise<string[]> {
    return (await names(this.#root))
      .filter((n) => n.startsWith('resource_'))
      .map((n) => n.slice('resource_'.length))
      .sort();
  }

  async forget(resource: string): Promise<void> {
    await fs.rm(this.#dir(resource), { recursive: true, force: true });
  }
}
