import type { MemoryStore, SessionRepository } from '@skein/core';

/**
 * A session store as the inspector reads it: the repository (file or S3) for the documents, plus
 * the listings a repository does not offer (which sessions, agents and orchestrators exist). Read-only:
 * nothing here writes.
 */
export interface InspectorStore {
  /** How the user named it (`./sessions`, `s3://bucket/prefix`). */
  readonly label: string;
  readonly repository: SessionRepository;
  /** The long-term memory kept in the same place (`@skein/memory`'s records: documents and messages per resource). */
  readonly memory: MemoryStore;
  /** Session ids found in the store. */
  listSessions(): Promise<string[]>;
  /** Agent ids stored in one session. */
  listAgents(sessionId: string): Promise<string[]>;
  /** Orchestrator ids stored in one session. */
  listMultiAgents(sessionId: string): Promise<string[]>;
  /** The raw JSON of an orchestrator's document, for formats the repository does not understand (Strands'). */
  readRawMultiAgent(sessionId: string, multiAgentId: string): Promise<unknown>;
  /** Releases clients. */
  close(): Promise<void>;
}

/** The ids named by entries `<prefix><id>` of a listing, e.g. `session_` + id. */
export function idsWithPrefix(names: Iterable<string>, prefix: string): string[] {
  const ids: string[] = [];
  for (const name of names) {
    const clean = name.endsWith('/') ? name.slice(0, -1) : name;
    if (clean.startsWith(prefix) && clean.length > prefix.length) ids.push(clean.slice(prefix.length));
  }
  return ids.sort();
}
