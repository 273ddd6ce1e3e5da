import type { Agent } from '../agent/agent.js';
import { SessionNotFoundError } from '../errors/session-errors.js';
import { messageText, type Message } from '../types/messages.js';
import { repairToolPairs } from './repair-history.js';
import { SerialQueue } from './serial-queue.js';
import { checkSessionId, encodeBytes } from './session-codec.js';
import type { SessionRepository } from './session-repository.js';
import { nowIso, type SessionMessage } from './session-types.js';

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

  constructor(repo: SessionRepository, sessionId: string, storeId: string) {
    checkSessionId(storeId, 'agent id');
    this.#repo = repo;
    this.#sessionId = sessionId;
    this.storeId = storeId;
  }

  /**
   * Loads the stored agent into `agent` (state, conversation-manager state, messages after the
   * removed ones), or stores `agent` as it is when nothing is stored. Broken tool pairs are repaired
   * in memory; a history that ended inside a tool call gets (and stores) an error result for it.
   */
  restore(agent: Agent): Promise<void> {
    return this.#queue.run(() => this.#restore(agent));
  }

  /** Stores `message` as the next message of the agent. */
  append(message: Message): Promise<void> {
    return this.#queue.run(() => this.#append(message));
  }

  /** Writes the agent's state and conversation-manager state. */
  sync(agent: Agent): Promise<void> {
    return this.#queue.run(async () => {
      const now = nowIso();
      this.#createdAt ??= (await this.#repo.readAgent(this.#sessionId, this.storeId))?.created_at ?? now;
      await this.#repo.updateAgent(this.#sessionId, {
        agent_id: this.storeId,
        state: agent.state.get(),
        conversation_manager_state: agent.conversationManager.getState(),
        created_at: this.#createdAt,
        updated_at: now,
      });
    });
  }

  /** Replaces what is restored for the latest stored message with `redacted`. */
  redactLatest(redacted: Message): Promise<void> {
    return this.#queue.run(async () => {
      if (!this.#latest) {
        throw new SessionNotFoundError(`Agent ${this.storeId} of session ${this.#sessionId} has no stored message to redact yet; redact after a message was added.`);
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
  reset(agent: Agent): Promise<void> {
    return this.#queue.run(async () => {
      const stored = await this.#repo.readAgent(this.#sessionId, this.storeId);
      if (!stored) return this.#create(agent);
      await this.#repo.deleteMessages(this.#sessionId, this.storeId, 0);
      this.#nextId = agent.conversationManager.removedMessageCount;
      this.#latest = undefined;
      for (const message of withoutRestoredPrefix(agent)) await this.#append(message);
      this.#createdAt = stored.created_at;
      const now = nowIso();
      await this.#repo.updateAgent(this.#sessionId, {
        agent_id: this.storeId,
        state: agent.state.get(),
        conversation_manager_state: agent.conversationManager.getState(),
        created_at: stored.created_at,
        updated_at: now,
      });
    });
  }

  async #restore(agent: Agent): Promise<void> {
    const initial = agent.messages;
    const stored = await this.#repo.readAgent(this.#sessionId, this.storeId);
    if (!stored) return this.#create(agent);
    this.#createdAt = stored.created_at;
    agent.state.replace(stored.state ?? {});
    const prefix = agent.conversationManager.restoreFromSession(stored.conversation_manager_state ?? {}) ?? [];
    const offset = agent.conversationManager.removedMessageCount;
    const rows = await this.#repo.listMessages(this.#sessionId, this.storeId, { offset });
    this.#nextId = offset + rows.length;
    this.#latest = rows[rows.length - 1];
    // The record is written before the initial messages (repositories store messages under an
    // existing agent): a process that died in between left a strict prefix of them. Complete it.
    const missing = offset === 0 ? missingInitialMessages(rows.map((r) => r.message), initial) : [];
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

  async #create(agent: Agent): Promise<void> {
    const now = nowIso();
    await this.#repo.createAgent(this.#sessionId, {
      agent_id: this.storeId,
      state: agent.state.get(),
      conversation_manager_state: agent.conversationManager.getState(),
      created_at: now,
      updated_at: now,
    });
    this.#createdAt = now;
    this.#nextId = 0;
    this.#latest = undefined;
    for (const message of agent.messages) await this.#append(message);
  }

  async #append(message: Message): Promise<void> {
    const now = nowIso();
    const row: SessionMessage = { message, message_id: this.#nextId, redact_message: null, created_at: now, updated_at: now };
    await this.#repo.createMessage(this.#sessionId, this.storeId, row);
    this.#nextId++;
    this.#latest = row;
  }
}

/** The initial messages not yet stored, when what is stored is a strict prefix of them (else none). */
function missingInitialMessages(stored: readonly Message[], initial: readonly Message[]): Message[] {
  if (stored.length >= initial.length) return [];
  const same = stored.every((m, i) => JSON.stringify(encodeBytes(m)) === JSON.stringify(encodeBytes(initial[i] as Message)));
  return same ? initial.slice(stored.length) : [];
}

/** The agent's history without a leading summary that its conversation manager keeps in its own state (`summary_message`). */
function withoutRestoredPrefix(agent: Agent): Message[] {
  const summary = agent.conversationManager.getState()['summary_message'] as Message | undefined;
  const first = agent.messages[0];
  const isSummary = summary !== undefined && first !== undefined && first.role === 'user' && Array.isArray(summary.content) && messageText(first) === messageText(summary);
  return isSummary ? agent.messages.slice(1) : agent.messages;
}
