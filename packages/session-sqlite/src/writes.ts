import {
  recordText,
  SessionConflictError,
  SessionNotFoundError,
  type JsonObject,
  type NodeTransition,
  type SessionAgent,
  type SessionMessage,
  type SessionMultiAgent,
  type SessionWrite,
} from '@skein/core';
import type { Statements } from './database.js';

/** Applies session writes with the single calls' checks, inside the caller's transaction (synchronous). */
export class SqliteWrites {
  readonly #st: () => Statements;
  readonly #store: string;

  constructor(statements: () => Statements, store: string) {
    this.#st = statements;
    this.#store = store;
  }

  apply(sessionId: string, write: SessionWrite): void {
    switch (write.op) {
      case 'createAgent':
        return this.#createAgent(sessionId, write.agent);
      case 'updateAgent':
        return this.#updateAgent(sessionId, write.agent);
      case 'createMessage':
        return this.#createMessage(sessionId, write.agentId, write.message);
      case 'updateMessage':
        return this.#updateMessage(sessionId, write.agentId, write.message);
      case 'deleteMessages':
        this.#requireAgent(sessionId, write.agentId);
        return void this.#st().deleteMessages.run(sessionId, write.agentId, write.fromMessageId);
      case 'createMultiAgent':
        return this.#createMultiAgent(sessionId, write.multiAgent);
      case 'updateMultiAgent':
        return this.#updateMultiAgent(sessionId, write.multiAgent);
      case 'putNodeEntry':
        return this.#putNode(sessionId, write.multiAgentId, write.nodeId, write.entry);
      case 'appendTransitions':
        return this.#appendTransitions(sessionId, write.multiAgentId, write.transitions);
    }
  }

  requireSession(sessionId: string): void {
    if (this.#st().readSession.get(sessionId) === undefined)
      throw new SessionNotFoundError(`Session ${sessionId} does not exist in ${this.#store}; create it first.`, {
        location: this.#store,
      });
  }

  #requireAgent(sessionId: string, agentId: string): void {
    if (this.#st().readAgent.get(sessionId, agentId) === undefined)
      throw new SessionNotFoundError(
        `Agent ${agentId} does not exist in session ${sessionId} of ${this.#store}; create it first.`,
        { location: this.#store },
      );
  }

  #requireMultiAgent(sessionId: string, id: string): void {
    if (this.#st().readMultiAgent.get(sessionId, id) === undefined)
      throw new SessionNotFoundError(
        `Orchestrator ${id} does not exist in session ${sessionId} of ${this.#store}; create it first.`,
        { location: this.#store },
      );
  }

  #exists(what: string): SessionConflictError {
    return new SessionConflictError(`${what} already exists in ${this.#store}; nothing was overwritten.`, {
      location: this.#store,
    });
  }

  #createAgent(sessionId: string, agent: SessionAgent): void {
    this.requireSession(sessionId);
    if (this.#st().insertAgent.run(sessionId, agent.agent_id, recordText(agent)).changes === 0)
      throw this.#exists(`Agent ${agent.agent_id} of session ${sessionId}`);
  }

  #updateAgent(sessionId: string, agent: SessionAgent): void {
    if (this.#st().updateAgent.run(recordText(agent), sessionId, agent.agent_id).changes === 0)
      throw new SessionNotFoundError(
        `Agent ${agent.agent_id} does not exist in session ${sessionId} of ${this.#store}; create it first.`,
        { location: this.#store },
      );
  }

  #createMessage(sessionId: string, agentId: string, message: SessionMessage): void {
    this.#requireAgent(sessionId, agentId);
    if (this.#st().insertMessage.run(sessionId, agentId, message.message_id, recordText(message)).changes === 0)
      throw this.#exists(`Message ${message.message_id} of agent ${agentId} in session ${sessionId}`);
  }

  #updateMessage(sessionId: string, agentId: string, message: SessionMessage): void {
    if (this.#st().updateMessage.run(recordText(message), sessionId, agentId, message.message_id).changes === 0)
      throw new SessionNotFoundError(
        `Message ${message.message_id} of agent ${agentId} does not exist in session ${sessionId} of ${this.#store}.`,
        { location: this.#store },
      );
  }

  #createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): void {
    this.requireSession(sessionId);
    if (this.#st().insertMultiAgent.run(sessionId, multiAgent.id, recordText(multiAgent)).changes === 0)
      throw this.#exists(`Orchestrator ${multiAgent.id} of session ${sessionId}`);
  }

  #updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): void {
    if (this.#st().updateMultiAgent.run(recordText(multiAgent), sessionId, multiAgent.id).changes === 0)
      throw new SessionNotFoundError(
        `Orchestrator ${multiAgent.id} does not exist in session ${sessionId} of ${this.#store}; create it first.`,
        { location: this.#store },
      );
  }

  deleteMultiAgent(sessionId: string, id: string): void {
    this.requireSession(sessionId);
    const st = this.#st();
    for (const statement of [st.deleteMultiAgent, st.deleteNodes, st.deleteTransitions]) statement.run(sessionId, id);
  }

  #putNode(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): void {
    this.#requireMultiAgent(sessionId, multiAgentId);
    this.#st().putNode.run(sessionId, multiAgentId, nodeId, recordText(entry));
  }

  #appendTransitions(sessionId: string, multiAgentId: string, transitions: readonly NodeTransition[]): void {
    this.#requireMultiAgent(sessionId, multiAgentId);
    const st = this.#st();
    let next = (st.nextSeq.get(sessionId, multiAgentId) as { next: number }).next;
    for (const t of transitions) {
      if (t.seq !== next)
        throw new SessionConflictError(
          `Transition ${t.seq} of orchestrator ${multiAgentId} in session ${sessionId} is out of order (expected ${next}); nothing was written.`,
          { location: this.#store },
        );
      st.insertTransition.run(sessionId, multiAgentId, t.seq, recordText(t));
      next++;
    }
  }
}
