import type { JsonObject } from '../../types/json.js';
import { checkWrite } from '../check-write.js';
import { checkSessionId } from '../session-codec.js';
import type { AgentRecords, OrchestratorRecords, SessionRepository, SessionWrite } from '../session-repository.js';
import type {
  ListMessagesOptions,
  NodeTransition,
  Session,
  SessionAgent,
  SessionMessage,
  SessionMultiAgent,
} from '../session-types.js';
import { checkIndex } from '../stored-records.js';

/**
 * The checked front of a store: every id a call carries (session, agent, orchestrator, node; message
 * ids, offsets, limits and transition numbers) is checked here, once, before the store's records see
 * it, so an id that could leave the storage is a `SessionNotFoundError` before anything is touched.
 * A store gives its agent records and its orchestrator records (`records`, `orchestrators`: classes of
 * its own, or one object for both) and adds its claims (`beginView`, `release`) and, with
 * transactions, `writeBatch` (checked by `checkBatch`).
 */
export abstract class SessionStore implements SessionRepository {
  /** The store's session, agent and message records. */
  protected abstract readonly records: AgentRecords;
  /** The store's orchestrator records. */
  protected abstract readonly orchestrators: OrchestratorRecords;

  async createSession(session: Session): Promise<Session> {
    checkSessionId(session.session_id, 'session id');
    return this.records.createSession(session);
  }

  async readSession(sessionId: string): Promise<Session | undefined> {
    checkSessionId(sessionId, 'session id');
    return this.records.readSession(sessionId);
  }

  async deleteSession(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    return this.records.deleteSession(sessionId);
  }

  async createAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    checkAgent(sessionId, agent.agent_id);
    return this.records.createAgent(sessionId, agent);
  }

  async readAgent(sessionId: string, agentId: string): Promise<SessionAgent | undefined> {
    checkAgent(sessionId, agentId);
    return this.records.readAgent(sessionId, agentId);
  }

  async updateAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    checkAgent(sessionId, agent.agent_id);
    return this.records.updateAgent(sessionId, agent);
  }

  async createMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    checkAgent(sessionId, agentId);
    checkIndex(message.message_id, 'message id');
    return this.records.createMessage(sessionId, agentId, message);
  }

  async readMessage(sessionId: string, agentId: string, messageId: number): Promise<SessionMessage | undefined> {
    checkAgent(sessionId, agentId);
    checkIndex(messageId, 'message id');
    return this.records.readMessage(sessionId, agentId, messageId);
  }

  async updateMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    checkAgent(sessionId, agentId);
    checkIndex(message.message_id, 'message id');
    return this.records.updateMessage(sessionId, agentId, message);
  }

  async listMessages(sessionId: string, agentId: string, options: ListMessagesOptions = {}): Promise<SessionMessage[]> {
    checkAgent(sessionId, agentId);
    if (options.offset !== undefined) checkIndex(options.offset, 'offset');
    if (options.limit !== undefined) checkIndex(options.limit, 'limit');
    return this.records.listMessages(sessionId, agentId, options);
  }

  async deleteMessages(sessionId: string, agentId: string, fromMessageId: number): Promise<void> {
    checkAgent(sessionId, agentId);
    checkIndex(fromMessageId, 'fromMessageId');
    return this.records.deleteMessages(sessionId, agentId, fromMessageId);
  }

  async createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    checkOrchestrator(sessionId, multiAgent.id);
    return this.orchestrators.createMultiAgent(sessionId, multiAgent);
  }

  async readMultiAgent(sessionId: string, multiAgentId: string): Promise<SessionMultiAgent | undefined> {
    checkOrchestrator(sessionId, multiAgentId);
    return this.orchestrators.readMultiAgent(sessionId, multiAgentId);
  }

  async updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    checkOrchestrator(sessionId, multiAgent.id);
    return this.orchestrators.updateMultiAgent(sessionId, multiAgent);
  }

  async deleteMultiAgent(sessionId: string, multiAgentId: string): Promise<void> {
    checkOrchestrator(sessionId, multiAgentId);
    return this.orchestrators.deleteMultiAgent(sessionId, multiAgentId);
  }

  async putNodeEntry(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): Promise<void> {
    checkOrchestrator(sessionId, multiAgentId);
    checkSessionId(nodeId, 'node id');
    return this.orchestrators.putNodeEntry(sessionId, multiAgentId, nodeId, entry);
  }

  async readNodeEntries(sessionId: string, multiAgentId: string): Promise<Record<string, JsonObject>> {
    checkOrchestrator(sessionId, multiAgentId);
    return this.orchestrators.readNodeEntries(sessionId, multiAgentId);
  }

  async appendTransitions(
    sessionId: string,
    multiAgentId: string,
    transitions: readonly NodeTransition[],
  ): Promise<void> {
    checkOrchestrator(sessionId, multiAgentId);
    for (const t of transitions) checkIndex(t.seq, 'transition seq');
    return this.orchestrators.appendTransitions(sessionId, multiAgentId, transitions);
  }

  async readTransitions(sessionId: string, multiAgentId: string): Promise<NodeTransition[]> {
    checkOrchestrator(sessionId, multiAgentId);
    return this.orchestrators.readTransitions(sessionId, multiAgentId);
  }

  /** Checks a batch's session id and every write's ids (before the store starts its transaction). */
  protected checkBatch(sessionId: string, writes: readonly SessionWrite[]): void {
    checkSessionId(sessionId, 'session id');
    for (const write of writes) checkWrite(write);
  }
}

function checkAgent(sessionId: string, agentId: string): void {
  checkSessionId(sessionId, 'session id');
  checkSessionId(agentId, 'agent id');
}

function checkOrchestrator(sessionId: string, multiAgentId: string): void {
  checkSessionId(sessionId, 'session id');
  checkSessionId(multiAgentId, 'multi-agent id');
}
