import type { PersistedAgent } from './persisted-agent.js';
import { SessionNotFoundError } from '../errors/session-errors.js';
import type { Message } from '../types/messages.js';
import { repairToolPairs } from './repair-history.js';
import { SerialQueue } from './serial-queue.js';
import { checkSessionId } from './session-codec.js';
import type { AgentAtStep } from './history/history-types.js';
import type { StagedAgentWrites } from './orchestrator-record.js';
import type { SessionRepository, SessionWrite } from './session-repository.js';
import { nowIso, type SessionAgent, type SessionMessage } from './session-types.js';
import { detachedFor, messageRow, planSync, snapshotAt } from './stored-position.js';
import { pendingTurnOf } from '../interrupt/pending-access.js';
import { type PendingTurn } from '../interrupt/pending-turn.js';
import { missingInitialMessages, withoutRestoredPrefix } from './agent-persistence-helpers.js';
import { agentRecord, storedPending } from './agent-record.js';
import {
  checkStoredRows,
  takePendingTurn,
  type AgentCheckpoint,
  type StoredAgent,
  type StoredPosition,
} from './stored-history.js';

/**
 * Persists one agent under one id of a session: restores it, appends each new message, syncs its
 * state. Shared by the standalone session manager and orchestrator sessions. Every operation runs in
 * call order (a queue), so message ids follow the order messages were added even when callers race.
 */
export class AgentPersistence {
  readonly #repo: SessionRepository;
  readonly #sessionId: string;
  readonly storeId: string;
  readonly #queue = new SerialQueue();
  #nextId = 0;
  #latest: SessionMessage | undefined;
  #createdAt: string | undefined;
  /** The pending turn already taken out of the stored history, and the message id it was stored at. */
  #detached: { turn: PendingTurn; from: number } | undefined;
  /** Writes wait for `flush()` (an orchestrator's step) instead of going out as they come. */
  readonly #deferred: boolean;
  /** Deferred: messages added since the last flush, and the agent whose state the next flush stores. */
  #buffer: Message[] = [];
  #syncWanted: PersistedAgent | undefined;

  constructor(repo: SessionRepository, sessionId: string, storeId: string, options: { deferred?: boolean } = {}) {
    checkSessionId(storeId, 'agent id');
    this.#repo = repo;
    this.#sessionId = sessionId;
    this.storeId = storeId;
    this.#deferred = options.deferred === true;
  }

  /** Where the next message will be stored: messages stored so far plus those waiting for `flush()`. */
  get nextMessageId(): number {
    return this.#nextId + this.#buffer.length;
  }

  /**
   * Loads the stored agent into `agent` (state, conversation-manager state, messages after the
   * removed ones), or stores `agent` as it is when nothing is stored. Broken tool pairs are repaired
   * in memory; a history that ended inside a tool call gets (and stores) an error result for it.
   */
  restore(agent: PersistedAgent, checkpoint?: AgentCheckpoint): Promise<void> {
    return this.#queue.run(() => this.#restore(agent, checkpoint));
  }

  /** Where this agent stands now, for an orchestrator to commit and later `restore` to. */
  checkpoint(agent: PersistedAgent): AgentCheckpoint {
    return { nextMessageId: this.nextMessageId, conversation: agent.conversationManager.getState() };
  }

  /**
   * Where this agent's stored history will stand once its held writes are stored (no write): the next
   * message id and the record (state, conversation-manager state, a waiting turn). What a step's
   * history keeps of a member agent; the same positions `flush()` and `stage()` reach.
   */
  snapshot(agent: PersistedAgent): AgentAtStep {
    const next = this.#nextId + this.#buffer.length;
    const last = this.#buffer.at(-1);
    const latest = last ? { message: last, message_id: next - 1 } : this.#latest;
    return snapshotAt(agent, this.storeId, { nextId: next, latest, detached: this.#detached });
  }

  /** Stores `message` as the next message of the agent (deferred: at the next `flush()`). */
  append(message: Message): Promise<void> {
    if (this.#deferred) return (void this.#buffer.push(message), Promise.resolve());
    return this.#queue.run(() => this.#append(message));
  }

  /**
   * Deferred writes: stores the messages added since the last flush and, after an invocation, the
   * agent's record, all at once (one round of writes). The agent must be idle (not mid-invocation).
   * Concurrent message writes cut by a crash can leave a gap past the last committed message, so an
   * orchestrator restores such an agent with the checkpoint it committed (`restore(agent, checkpoint)`).
   */
  flush(): Promise<void> {
    const messages = this.#buffer;
    const agent = this.#syncWanted;
    this.#buffer = [];
    this.#syncWanted = undefined;
    if (messages.length === 0 && !agent) return Promise.resolve();
    return this.#queue.run(async () => {
      const rows = messages.map((message, i) => messageRow(message, this.#nextId + i));
      const record = agent && !pendingTurnOf(agent) && !this.#detached ? this.#syncNow(agent) : undefined;
      await Promise.all([...rows.map((row) => this.#repo.createMessage(this.#sessionId, this.storeId, row)), record]);
      this.#nextId += rows.length;
      this.#latest = rows[rows.length - 1] ?? this.#latest;
      // A turn waiting for answers is written into the record before its message is removed: in order.
      if (agent && !record) await this.#syncNow(agent);
    });
  }

  /**
   * The deferred writes as one list, for a repository with `writeBatch`: the messages added since the
   * last flush, then the record (and a waiting turn's removal from the stored messages), the same
   * writes `flush()` makes. The agent's queue waits until `settle` is called; its bookkeeping moves on
   * only when the batch was stored.
   */
  stage(): Promise<StagedAgentWrites | undefined> {
    const messages = this.#buffer;
    const agent = this.#syncWanted;
    this.#buffer = [];
    this.#syncWanted = undefined;
    if (messages.length === 0 && !agent) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      void this.#queue.run(async () => {
        let settled: Promise<boolean>;
        let position: StoredPosition;
        const writes: SessionWrite[] = [];
        try {
          const rows = messages.map((message, i) => messageRow(message, this.#nextId + i));
          for (const message of rows) writes.push({ op: 'createMessage', agentId: this.storeId, message });
          position = {
            nextId: this.#nextId + rows.length,
            latest: rows.at(-1) ?? this.#latest,
            detached: this.#detached,
          };
          if (agent) position = await this.#planSync(agent, position, writes);
        } catch (error) {
          return reject(error);
        }
        settled = new Promise<boolean>((settle) => resolve({ writes, settle }));
        if (!(await settled)) return;
        this.#nextId = position.nextId;
        this.#latest = position.latest;
        this.#detached = position.detached;
      });
    });
  }

  /** `#syncNow`'s writes from `from` on, pushed to `writes`; returns where the stored history then stands. */
  async #planSync(agent: PersistedAgent, from: StoredPosition, writes: SessionWrite[]): Promise<StoredPosition> {
    this.#createdAt ??= (await this.#repo.readAgent(this.#sessionId, this.storeId))?.created_at ?? nowIso();
    return planSync(agent, this.storeId, this.#createdAt, from, writes);
  }

  /**
   * Writes the agent's state and conversation-manager state. A turn that waits for answers is
   * written into the agent record first and only then removed from the stored messages (where the
   * loop had appended its assistant message), so a crash in between leaves a record that restore
   * completes, and the stored history never shows a toolUse without its toolResult for long.
   */
  sync(agent: PersistedAgent): Promise<void> {
    if (this.#deferred) return (void (this.#syncWanted = agent), Promise.resolve());
    return this.#queue.run(() => this.#syncNow(agent));
  }

  async #syncNow(agent: PersistedAgent): Promise<void> {
    this.#createdAt ??= (await this.#repo.readAgent(this.#sessionId, this.storeId))?.created_at ?? nowIso();
    const pending = pendingTurnOf(agent);
    this.#detached = detachedFor(pending, { nextId: this.#nextId, latest: this.#latest, detached: this.#detached });
    if (!this.#detached) return this.#repo.updateAgent(this.#sessionId, this.#recordOf(agent, this.#createdAt));
    await this.#repo.updateAgent(this.#sessionId, this.#recordOf(agent, this.#createdAt));
    const { from } = this.#detached;
    if (from < this.#nextId) {
      await this.#repo.deleteMessages(this.#sessionId, this.storeId, from);
      this.#nextId = from;
      this.#latest = undefined;
    }
  }

  #recordOf(agent: PersistedAgent, createdAt: string, detached = this.#detached): SessionAgent {
    return agentRecord(agent, this.storeId, createdAt, detached);
  }

  #where(): StoredAgent {
    return { sessionId: this.#sessionId, agentId: this.storeId };
  }

  /** Replaces what is restored for the latest stored message with `redacted`. */
  redactLatest(redacted: Message): Promise<void> {
    return this.#queue.run(async () => {
      if (!this.#latest) {
        throw new SessionNotFoundError(
          `Agent ${this.storeId} of session ${this.#sessionId} has no stored message to redact yet; redact after a message was added.`,
        );
      }
      const row: SessionMessage = { ...this.#latest, redact_message: redacted, updated_at: nowIso() };
      await this.#repo.updateMessage(this.#sessionId, this.storeId, row);
      this.#latest = row;
    });
  }

  /**
   * Stores `agent` as it is now, replacing whatever history was stored under this id. The messages are
   * stored from id `removedMessageCount` on (and a leading summary the conversation manager restores
   * itself is left out), so that the next restore, which skips that many ids, gets exactly this history.
   */
  reset(agent: PersistedAgent): Promise<void> {
    this.#buffer = [];
    this.#syncWanted = undefined;
    return this.#queue.run(async () => {
      const stored = await this.#repo.readAgent(this.#sessionId, this.storeId);
      if (!stored) return this.#create(agent);
      await this.#repo.deleteMessages(this.#sessionId, this.storeId, 0);
      this.#nextId = agent.conversationManager.removedMessageCount;
      this.#latest = undefined;
      for (const message of withoutRestoredPrefix(agent)) await this.#append(message);
      this.#createdAt = stored.created_at;
      // A turn waiting for answers is not among the messages: it stays in the record.
      const pending = pendingTurnOf(agent);
      this.#detached = pending ? { turn: pending, from: this.#nextId } : undefined;
      await this.#repo.updateAgent(this.#sessionId, this.#recordOf(agent, stored.created_at));
    });
  }

  async #restore(agent: PersistedAgent, checkpoint: AgentCheckpoint | undefined): Promise<void> {
    const initial = agent.messages;
    const stored = await this.#repo.readAgent(this.#sessionId, this.storeId);
    if (!stored) return this.#create(agent);
    this.#createdAt = stored.created_at;
    agent.state.replace(stored.state ?? {});
    // Back to a committed checkpoint: what was written after it (maybe with gaps) never happened.
    if (checkpoint) await this.#repo.deleteMessages(this.#sessionId, this.storeId, checkpoint.nextMessageId);
    const prefix =
      agent.conversationManager.restoreFromSession(
        (checkpoint ? checkpoint.conversation : stored.conversation_manager_state) ?? {},
      ) ?? [];
    const offset = agent.conversationManager.removedMessageCount;
    let rows = await this.#repo.listMessages(this.#sessionId, this.storeId, { offset });
    await checkStoredRows(this.#repo, this.#where(), rows, offset);
    const waiting = storedPending(stored, `Agent ${this.storeId} of session ${this.#sessionId}`);
    if (waiting) {
      const taken = await takePendingTurn(this.#repo, this.#where(), agent, waiting, rows);
      rows = taken.rows;
      if (taken.detached) this.#detached = taken.detached;
    }
    this.#nextId = offset + rows.length;
    this.#latest = rows[rows.length - 1];
    // The record is written before the initial messages (repositories store messages under an
    // existing agent): a process that died in between left a strict prefix of them. Complete it.
    const missing =
      offset === 0
        ? missingInitialMessages(
            rows.map((r) => r.message),
            initial,
          )
        : [];
    for (const message of missing) {
      await this.#append(message);
      rows.push(this.#latest as SessionMessage);
    }
    const { messages, closing } = repairToolPairs([...prefix, ...rows.map((row) => row.redact_message ?? row.message)]);
    agent.messages = messages;
    if (closing) {
      messages.push(closing);
      await this.#append(closing);
    }
  }

  async #create(agent: PersistedAgent): Promise<void> {
    const now = nowIso();
    const pending = pendingTurnOf(agent);
    this.#detached = pending ? { turn: pending, from: agent.messages.length } : undefined;
    await this.#repo.createAgent(this.#sessionId, this.#recordOf(agent, now));
    this.#createdAt = now;
    this.#nextId = 0;
    this.#latest = undefined;
    for (const message of agent.messages) await this.#append(message);
  }

  async #append(message: Message): Promise<void> {
    const row = messageRow(message, this.#nextId);
    await this.#repo.createMessage(this.#sessionId, this.storeId, row);
    this.#nextId++;
    this.#latest = row;
  }
}
