import {
  checkMemoryId,
  type JsonObject,
  type MemoryDocument,
  type MemoryMessage,
  type MemoryStore,
  nowIso,
} from '@skein/core';

interface Resource {
  documents: Map<string, MemoryDocument>;
  /** By thread, each sorted by seq. */
  threads: Map<string, MemoryMessage[]>;
}

const copy = <T>(value: T): T => structuredClone(value);

/**
 * Memory kept in this process (the default store of `new Memory()`): for tests and single-process
 * apps; gone when the process ends. Search is done by `Memory` itself (BM25 and cosine in memory).
 */
export class InMemoryMemoryStore implements MemoryStore {
  readonly label = 'in-memory';
  readonly #resources = new Map<string, Resource>();

  #resource(resource: string, create: true): Resource;
  #resource(resource: string, create: false): Resource | undefined;
  #resource(resource: string, create: boolean): Resource | undefined {
    checkMemoryId(resource, 'resource');
    let found = this.#resources.get(resource);
    if (!found && create) {
      found = { documents: new Map(), threads: new Map() };
      this.#resources.set(resource, found);
    }
    return found;
  }

  async readDocument(resource: string, key: string): Promise<MemoryDocument | undefined> {
    checkMemoryId(key, 'document key');
    const doc = this.#resource(resource, false)?.documents.get(key);
    return doc && copy(doc);
  }

  async writeDocument(resource: string, key: string, value: JsonObject, expected: number): Promise<boolean> {
    checkMemoryId(key, 'document key');
    const documents = this.#resource(resource, true).documents;
    if ((documents.get(key)?.version ?? 0) !== expected) return false;
    documents.set(key, { key, value: copy(value), version: expected + 1, updatedAt: nowIso() });
    return true;
  }

  async listDocuments(resource: string): Promise<MemoryDocument[]> {
    const found = this.#resource(resource, false);
    return found ? [...found.documents.values()].sort((a, b) => a.key.localeCompare(b.key)).map(copy) : [];
  }

  async putMessages(resource: string, messages: readonly MemoryMessage[]): Promise<void> {
    for (const m of messages) checkMemoryId(m.thread, 'thread');
    if (messages.length === 0) return;
    const threads = this.#resource(resource, true).threads;
    for (const m of messages) {
      const list = threads.get(m.thread) ?? [];
      const at = list.findIndex((x) => x.seq === m.seq);
      if (at >= 0) list[at] = copy(m);
      else list.push(copy(m));
      list.sort((a, b) => a.seq - b.seq);
      threads.set(m.thread, list);
    }
  }

  async listMessages(resource: string): Promise<MemoryMessage[]> {
    const found = this.#resource(resource, false);
    if (!found) return [];
    return [...found.threads.keys()].sort().flatMap((t) => (found.threads.get(t) ?? []).map(copy));
  }

  async readAround(
    resource: string,
    thread: string,
    seq: number,
    before: number,
    after: number,
  ): Promise<MemoryMessage[]> {
    checkMemoryId(thread, 'thread');
    const list = this.#resource(resource, false)?.threads.get(thread) ?? [];
    const at = list.findIndex((m) => m.seq === seq);
    if (at < 0) return [];
    return list.slice(Math.max(0, at - before), at + after + 1).map(copy);
  }

  async listResources(): Promise<string[]> {
    return [...this.#resources.keys()].sort();
  }

  async forget(resource: string): Promise<void> {
    checkMemoryId(resource, 'resource');
    this.#resources.delete(resource);
  }
}
