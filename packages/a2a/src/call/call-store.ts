/**
 * Where a remote call stands, stored before each step that talks to the remote agent, so a caller
 * that crashes resumes the same remote task (GetTask / SubscribeToTask) instead of sending its
 * message again. With a session manager the records are node entries of an `a2a-calls` entry of the
 * session (one per call key: the tool call's idempotency key, see `callNodeId`); without one they
 * live in memory.
 */
import type { JsonObject, JsonValue, MultiAgentSession, SessionManager } from '@skein/core';

/** One call to a remote agent. */
export interface CallRecord {
  version: 1;
  /** The A2A context of the call (set by the caller, so a lost task can be found with ListTasks). */
  contextId: string;
  /** The id of the message that starts the task. */
  messageId: string;
  /** The remote task, once known. */
  taskId?: string;
  /**
   * `sending`: the first message may or may not have arrived; `working`: the task runs;
   * `asking`: the task waits for an answer; `answering`: an answer is being sent;
   * `completed` / `failed`: the end.
   */
  state: 'sending' | 'working' | 'asking' | 'answering' | 'completed' | 'failed';
  /** How many times the task asked. */
  round: number;
  /** The task's question (`asking`): its text and the questions a skein agent listed. */
  question?: { text: string; interrupts: JsonValue[] };
  /** The answer being sent (`answering`) and the id of its message. */
  answer?: { messageId: string; response: JsonValue; interrupts: JsonValue[] };
  /** The answer (`completed`) or why it failed (`failed`). */
  text?: string;
  error?: string;
  usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
}

/** Stores call records. */
export interface CallStore {
  get(key: string): Promise<CallRecord | undefined>;
  put(key: string, record: CallRecord): Promise<void>;
}

export class MemoryCallStore implements CallStore {
  readonly #records = new Map<string, CallRecord>();
  async get(key: string): Promise<CallRecord | undefined> {
    const r = this.#records.get(key);
    return r ? structuredClone(r) : undefined;
  }
  async put(key: string, record: CallRecord): Promise<void> {
    this.#records.set(key, structuredClone(record));
  }
}

/**
 * The node id a call key is stored under. Keys are idempotency keys (43 base64url characters), which
 * may start with `-` or `_`, where a node id must start with a letter or a digit: those get a `k` in
 * front (44 characters, so never another key's id); the others keep the id they were stored under.
 */
function callNodeId(key: string): string {
  return /^[A-Za-z0-9]/.test(key) ? key : `k${key}`;
}

/** Records as node entries of `a2a-calls.<agent>` in a session. */
export class SessionCallStore implements CallStore {
  readonly #sm: SessionManager;
  readonly #id: string;
  #open: Promise<{ session: MultiAgentSession; nodes: Record<string, JsonObject> }> | undefined;

  constructor(sm: SessionManager, agentKey: string) {
    this.#sm = sm;
    this.#id = `a2a-calls.${agentKey}`;
  }

  #session(): Promise<{ session: MultiAgentSession; nodes: Record<string, JsonObject> }> {
    this.#open ??= (async () => {
      const session = await this.#sm.openMultiAgent(this.#id, 'a2a-calls');
      const loaded = await session.load();
      if (!loaded) await session.saveState({ kind: 'a2a-calls', version: 1 });
      return { session, nodes: { ...(loaded?.nodes ?? {}) } };
    })();
    this.#open.catch(() => {
      this.#open = undefined;
    });
    return this.#open;
  }

  async get(key: string): Promise<CallRecord | undefined> {
    const { nodes } = await this.#session();
    const entry = nodes[callNodeId(key)];
    return entry && entry['version'] === 1 ? (structuredClone(entry) as unknown as CallRecord) : undefined;
  }

  async put(key: string, record: CallRecord): Promise<void> {
    const { session, nodes } = await this.#session();
    const entry = structuredClone(record) as unknown as JsonObject;
    const id = callNodeId(key);
    await session.saveNode(id, entry);
    nodes[id] = entry;
  }
}
