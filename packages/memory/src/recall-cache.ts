import { LexicalIndex, type MemoryMessage, type MemoryStore, type MemoryVersionChange } from '@skein/core';

/** One resource's index, labelled with the store's message version it was read at (or after). */
interface Entry {
  version: number;
  /** The index once built; `undefined` while it is read, or when the resource has more messages than the cache holds. */
  index: LexicalIndex | undefined;
  building: Promise<LexicalIndex> | undefined;
  /** Messages it counts against the cache's limit. */
  held: number;
  /** The resource had more messages than the cache holds: searched through the store, not read again. */
  tooLarge: boolean;
}

/** Oldest first, so that ranking ranks the newer of two equal messages first (as the store's own search did). */
const oldestFirst = (a: MemoryMessage, b: MemoryMessage): number => a.seq - b.seq || (a.thread < b.thread ? -1 : 1);

/**
 * Lexical indexes of resources' messages kept in this process, so that recall reads nothing but the
 * store's message version per turn: built once from the store, kept current by this process's own
 * writes (when the write moved the version from the one the index has), rebuilt when the version
 * moved otherwise (another process wrote or erased). At most `maxMessages` messages over all
 * resources, least recently used resources evicted first; a resource larger than that is not kept.
 */
export class RecallCache {
  readonly #store: MemoryStore;
  readonly #maxMessages: number;
  /** By resource; the Map's order is the least recently used first. */
  readonly #entries = new Map<string, Entry>();
  #held = 0;

  constructor(store: MemoryStore, maxMessages: number) {
    this.#store = store;
    this.#maxMessages = maxMessages;
  }

  /** The resource's index, current with the store as of now; `undefined` when the store keeps no version, or it is not kept. */
  async index(resource: string): Promise<LexicalIndex | undefined> {
    if (this.#maxMessages === 0 || !this.#store.messageVersion) return undefined;
    const version = await this.#store.messageVersion(resource);
    if (version === undefined) return undefined;
    // 0: no messages. Nothing is kept under it (what a read finds may be newer, and 0 comes back after an erasure).
    if (version === 0) {
      this.#drop(resource);
      return new LexicalIndex();
    }
    const entry = this.#entries.get(resource);
    if (entry?.version === version) {
      this.#entries.delete(resource);
      this.#entries.set(resource, entry);
      return entry.index ?? entry.building;
    }
    if (entry) this.#drop(resource);
    if (entry?.tooLarge) {
      this.#entries.set(resource, { ...entry, version });
      return undefined;
    }
    // Read after the version: what is read is at least as new as the label (at worst, one rebuild more).
    const fresh: Entry = { version, index: undefined, building: undefined, held: 0, tooLarge: false };
    fresh.building = this.#store.listMessages(resource).then((messages) => {
      const index = new LexicalIndex([...messages].sort(oldestFirst));
      if (this.#entries.get(resource) === fresh) {
        fresh.building = undefined;
        if (index.size <= this.#maxMessages) this.#keep(resource, fresh, index);
        else fresh.tooLarge = true;
      }
      return index;
    });
    this.#entries.set(resource, fresh);
    try {
      return await fresh.building;
    } catch (error) {
      if (this.#entries.get(resource) === fresh) this.#entries.delete(resource);
      throw error;
    }
  }

  /** After this process stored `messages`: adds them to the index when nothing else changed it in between, else drops it. */
  wrote(resource: string, change: MemoryVersionChange | undefined, messages: readonly MemoryMessage[]): void {
    const entry = this.#entries.get(resource);
    if (messages.length === 0 || !entry?.index) return; // nothing written; or no index, or one being read (labelled with an older version: rebuilt next turn)
    if (!change || entry.version !== change.before) {
      this.#drop(resource);
      return;
    }
    entry.index.add(messages);
    entry.version = change.after;
    this.#held += entry.index.size - entry.held;
    entry.held = entry.index.size;
    this.#evict(resource);
  }

  /** Forgets the resource's index (after the store erased the resource). */
  forget(resource: string): void {
    this.#drop(resource);
  }

  #keep(resource: string, entry: Entry, index: LexicalIndex): void {
    entry.index = index;
    entry.held = index.size;
    this.#held += index.size;
    this.#evict(resource);
  }

  /** Evicts the least recently used resources (never `keep`) until the cache holds at most its limit. */
  #evict(keep: string): void {
    for (const [resource] of this.#entries) {
      if (this.#held <= this.#maxMessages) return;
      if (resource !== keep) this.#drop(resource);
    }
    if (this.#held > this.#maxMessages) this.#drop(keep);
  }

  #drop(resource: string): void {
    const entry = this.#entries.get(resource);
    if (!entry) return;
    this.#held -= entry.held;
    this.#entries.delete(resource);
  }
}
