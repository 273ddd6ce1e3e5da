import type { JsonObject } from '../types/json.js';
import type {
  ListMessagesOptions,
  NodeTransition,
  Session,
  SessionAgent,
  SessionMessage,
  SessionMultiAgent,
} from './session-types.js';

/** One write of a {@link SessionRepository.writeBatch}: the arguments of the single call of the same name. */
export type SessionWrite =
  | { op: 'createAgent'; agent: SessionAgent }
  | { op: 'updateAgent'; agent: SessionAgent }
  | { op: 'createMessage'; agentId: string; message: SessionMessage }
  | { op: 'updateMessage'; agentId: string; message: SessionMessage }
  | { op: 'deleteMessages'; agentId: string; fromMessageId: number }
  | { op: 'createMultiAgent'; multiAgent: SessionMultiAgent }
  | { op: 'updateMultiAgent'; multiAgent: SessionMultiAgent }
  | { op: 'putNodeEntry'; multiAgentId: string; nodeId: string; entry: JsonObject }
  | { op: 'appendTransitions'; multiAgentId: string; transitions: readonly NodeTransition[] };

/**
 * Storage of sessions. Implementations: `InMemorySessionRepository` (core), `FileSessionRepository`
 * (@skein/session-file), `S3SessionRepository` (@skein/session-s3).
 *
 * Contract: `create*` fails with `SessionConflictError` when the item exists; `update*` fails with
 * `SessionNotFoundError` when it does not, and with `SessionConflictError` when another writer changed
 * it; `readSession`, `readAgent`, `readMessage` and `readMultiAgent` return `undefined` for a missing
 * item (also when its session is missing) and throw `SessionCorruptError` for an unreadable one
 * (naming the file or key). An invalid id (one that could leave the storage) is a `SessionNotFoundError`
 * before anything is touched. Every write is atomic: a crash leaves the old or the new content.
 * Callers (the session managers) never run two writes of one agent or orchestrator at once.
 */
export interface SessionRepository {
  createSession(session: Session): Promise<Session>;
  readSession(sessionId: string): Promise<Session | undefined>;
  /** Removes the session and everything in it. */
  deleteSession(sessionId: string): Promise<void>;

  createAgent(sessionId: string, agent: SessionAgent): Promise<void>;
  readAgent(sessionId: string, agentId: string): Promise<SessionAgent | undefined>;
  updateAgent(sessionId: string, agent: SessionAgent): Promise<void>;

  createMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void>;
  readMessage(sessionId: string, agentId: string, messageId: number): Promise<SessionMessage | undefined>;
  updateMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void>;
  /** Messages ordered by `message_id`, starting at id `offset`. A gap in the ids is a `SessionCorruptError`. */
  listMessages(sessionId: string, agentId: string, options?: ListMessagesOptions): Promise<SessionMessage[]>;
  /** Removes the messages with ids >= `fromMessageId` (an orchestrator resetting a revisited node). */
  deleteMessages(sessionId: string, agentId: string, fromMessageId: number): Promise<void>;

  createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void>;
  readMultiAgent(sessionId: string, multiAgentId: string): Promise<SessionMultiAgent | undefined>;
  updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void>;
  /** Removes an orchestrator's state, node entries and transitions (a finished run starting fresh). */
  deleteMultiAgent(sessionId: string, multiAgentId: string): Promise<void>;

  /** Writes one node's entry (its result and bookkeeping), replacing an earlier one of the same node. */
  putNodeEntry(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): Promise<void>;
  /** All node entries of an orchestrator, by node id. */
  readNodeEntries(sessionId: string, multiAgentId: string): Promise<Record<string, JsonObject>>;

  /** Appends transitions (each stored once, never rewritten). */
  appendTransitions(sessionId: string, multiAgentId: string, transitions: readonly NodeTransition[]): Promise<void>;
  /** The transitions in `seq` order. */
  readTransitions(sessionId: string, multiAgentId: string): Promise<NodeTransition[]>;

  /**
   * Optional: applies `writes` to one session in order, as one atomic unit (all of them or none), with
   * the checks of the single calls. Stores with transactions implement it, and a step is then one
   * commit; without it, callers make the single calls.
   */
  writeBatch?(sessionId: string, writes: readonly SessionWrite[]): Promise<void>;

  /**
   * Optional: starts this writer's view of `sessionId`. A session manager calls it before it reads the
   * session it loads. The repository remembers the session's write generation then (and whether another
   * writer held the session); its next claim of the session (the lock or lease its first write takes)
   * fails with `SessionConflictError`, writing nothing, when another writer has written the session
   * since, or held it at that moment. A writer never goes on from a stale view.
   */
  beginView?(sessionId: string): Promise<void>;

  /** Optional: gives up this writer's claim on `sessionId` (lock, lease) and keeps its view; `close()` does it for every session. */
  release?(sessionId: string): Promise<void>;

  /**
   * Optional: resolves `true` once no other live writer holds `sessionId` (at once when none does; when
   * its holder gives it up, as the store tells it, e.g. PostgreSQL `NOTIFY`; or when the holder is
   * found gone), `false` when another still holds it after `timeoutMs`. Callers that wait for a
   * session (a server's `"wait": true`) poll with a bound where a store has none.
   */
  waitForRelease?(sessionId: string, timeoutMs: number): Promise<boolean>;
}
