import type { JsonObject } from '../types/json.js';

/** One message kept for recall: its text, where it was said, and (with an embedding model) its vector. */
export interface MemoryMessage {
  /** The conversation it belongs to. */
  thread: string;
  /** Its place in the thread (increasing; not contiguous). */
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  /** When it was said (ISO 8601). */
  at: string;
  /** Its embedding, computed once when it was stored. */
  embedding?: number[] | undefined;
}

/** A stored document of a resource (working memory, observed facts), versioned for compare-and-set. */
export interface MemoryDocument {
  key: string;
  value: JsonObject;
  /** 1 for the first write, +1 for each later one. */
  version: number;
  updatedAt: string;
}

/** A message a search found, with its score (higher is better). */
export interface MemoryHit {
  message: MemoryMessage;
  score: number;
}

/**
 * What a write did to a resource's message version (stores that keep one): the version just before it
 * and the one it left, read in the write's own transaction.
 */
export interface MemoryVersionChange {
  before: number;
  after: number;
}

/** What a search is limited to. */
export interface MemorySearchOptions {
  /** At most this many hits. */
  limit: number;
  /** Leave out this thread (the conversation under way: its messages are in the history already). */
  excludeThread?: string | undefined;
}

/**
 * Where long-term memory is kept, per resource: documents (compare-and-set) and messages (searchable).
 * Implementations: `InMemoryMemoryStore` (`@skein/memory`), and a memory store in each session store
 * package (file, S3, SQLite, PostgreSQL). Every method checks its ids first (`MemoryError`
 * `memory_invalid_id`, nothing touched). `forget(resource)` leaves nothing of the resource in any
 * table, file, object or index.
 */
export interface MemoryStore {
  /** Where it is, for messages (`sqlite:/path/desk.db`, `s3://bucket/prefix`). */
  readonly label: string;
  readDocument(resource: string, key: string): Promise<MemoryDocument | undefined>;
  /**
   * Writes `value` if the stored version is still `expected` (0: no document yet) and returns true;
   * returns false, writing nothing, when another writer changed it first.
   */
  writeDocument(resource: string, key: string, value: JsonObject, expected: number): Promise<boolean>;
  /** Every document of a resource, by key. */
  listDocuments(resource: string): Promise<MemoryDocument[]>;
  /**
   * Stores messages; one with a (thread, seq) already stored replaces it everywhere (indexes too).
   * A store with `messageVersion` returns how the write moved it.
   */
  putMessages(resource: string, messages: readonly MemoryMessage[]): Promise<MemoryVersionChange | void>;
  /**
   * The version of the resource's messages: it changes with every write or erasure of them, by any
   * writer (another process too), and never comes back to an earlier value. Absent: `Memory` keeps
   * no index of its own for the store (nor when it gives `undefined`) and searches through it every turn.
   */
  messageVersion?(resource: string): Promise<number | undefined>;
  /** Every message of a resource, by thread then seq. */
  listMessages(resource: string): Promise<MemoryMessage[]>;
  /** The `before` messages before `seq` and the `after` after it in `thread`, with the one at `seq`, in order. */
  readAround(resource: string, thread: string, seq: number, before: number, after: number): Promise<MemoryMessage[]>;
  /** Lexical search for any of `terms` (lower-case words), best first. Absent: the caller ranks `listMessages`. */
  searchText?(resource: string, terms: readonly string[], options: MemorySearchOptions): Promise<MemoryHit[]>;
  /** Nearest messages by cosine similarity to `vector`, best first. Absent: the caller ranks `listMessages`. */
  searchVector?(resource: string, vector: readonly number[], options: MemorySearchOptions): Promise<MemoryHit[]>;
  /** The resources with anything stored. */
  listResources(): Promise<string[]>;
  /** Erases everything of the resource: documents, messages, vectors, index entries. */
  forget(resource: string): Promise<void>;
  /** Releases connections or clients the store opened. */
  close?(): Promise<void>;
}
