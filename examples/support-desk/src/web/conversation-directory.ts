/**
 * The web desk's list of conversations and whose they are, for the supervisor (the server lists a
 * principal's own conversations only). One JSON file in the desk's directory, written atomically
 * (temp file + rename) one write after the other; an entry is added when a conversation's first
 * turn starts. Conversation ids are per customer: an entry is known by its session id.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { TargetKind } from '@skein/server';

export interface DirectoryEntry {
  /** The conversation id, as its customer names it. */
  id: string;
  /** Its session in the store (the id in the customer's namespace). */
  sessionId: string;
  customer: string;
  kind: TargetKind;
  createdAt: string;
}

export class ConversationDirectory {
  readonly file: string;
  #entries: Map<string, DirectoryEntry> | undefined;
  #saving: Promise<void> = Promise.resolve();

  constructor(dir: string) {
    this.file = join(dir, 'web-conversations.json');
  }

  async #load(): Promise<Map<string, DirectoryEntry>> {
    if (this.#entries) return this.#entries;
    let list: DirectoryEntry[] = [];
    try {
      list = (JSON.parse(await readFile(this.file, 'utf8')) as { conversations: DirectoryEntry[] }).conversations;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    // Entries written before ids were per customer have no session id: their session was their id.
    this.#entries ??= new Map(list.map((e) => [e.sessionId ?? e.id, { ...e, sessionId: e.sessionId ?? e.id }]));
    return this.#entries;
  }

  /** Every conversation, oldest first. */
  async list(): Promise<DirectoryEntry[]> {
    return [...(await this.#load()).values()];
  }

  /** The conversation stored in session `sessionId`. */
  async get(sessionId: string): Promise<DirectoryEntry | undefined> {
    return (await this.#load()).get(sessionId);
  }

  /** Adds a conversation (once; a known one is left as it is). */
  async add(entry: DirectoryEntry): Promise<void> {
    const entries = await this.#load();
    if (entries.has(entry.sessionId)) return;
    entries.set(entry.sessionId, entry);
    const write = this.#saving.then(() => this.#write([...entries.values()]));
    this.#saving = write.catch(() => undefined);
    await write;
  }

  async #write(conversations: DirectoryEntry[]): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify({ conversations }, null, 2));
    await rename(temp, this.file);
  }
}
