import { SessionConflictError, SessionCorruptError, SessionNotFoundError } from '../errors/session-errors.js';
import type { JsonObject } from '../types/json.js';
import type { AgentRecords, OrchestratorRecords } from './session-repository.js';
import { SessionStore } from './store/session-store.js';
import type {
  ListMessagesOptions,
  NodeTransition,
  Session,
  SessionAgent,
  SessionMessage,
  SessionMultiAgent,
} from './session-types.js';

interface StoredAgent {
  agent: SessionAgent;
  messages: Map<number, SessionMessage>;
}

interface StoredMultiAgent {
  multiAgent: SessionMultiAgent;
  nodes: Map<string, JsonObject>;
  transitions: NodeTransition[];
}

interface StoredSession {
  session: Session;
  agents: Map<string, StoredAgent>;
  multiAgents: Map<string, StoredMultiAgent>;
}

const copy = <T>(value: T): T => structuredClone(value);

/** Sessions kept in memory: for tests and short-lived apps. Values are copied in and out; ids are checked as every store's are. */
export class InMemorySessionRepository extends SessionStore {
  protected readonly records = new MemoryRecords();
  protected readonly orchestrators = this.records;
}

/** The records of an `InMemorySessionRepository` (ids already checked). */
class MemoryRecords implements AgentRecords, OrchestratorRecords {
  readonly #sessions = new Map<string, StoredSession>();

  #session(sessionId: string): StoredSession {
    const s = this.#sessions.get(sessionId);
    if (!s)
      throw new SessionNotFoundError(`Session ${sessionId} does not exist; create it first.`, { location: sessionId });
    return s;
  }

  #agent(sessionId: string, agentId: string): StoredAgent {
    const a = this.#session(sessionId).agents.get(agentId);
    if (!a)
      throw new SessionNotFoundError(`Agent ${agentId} does not exist in session ${sessionId}.`, {
        location: `${sessionId}/${agentId}`,
      });
    return a;
  }

  #multi(sessionId: string, id: string): StoredMultiAgent {
    const m = this.#session(sessionId).multiAgents.get(id);
    if (!m)
      throw new SessionNotFoundError(`Multi-agent ${id} does not exist in session ${sessionId}.`, {
        location: `${sessionId}/${id}`,
      });
    return m;
  }

  async createSession(session: Session): Promise<Session> {
    if (this.#sessions.has(session.session_id))
      throw new SessionConflictError(`Session ${session.session_id} already exists.`);
    this.#sessions.set(session.session_id, { session: copy(session), agents: new Map(), multiAgents: new Map() });
    return copy(session);
  }

  async readSession(sessionId: string): Promise<Session | undefined> {
    const s = this.#sessions.get(sessionId);
    return s ? copy(s.session) : undefined;
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
  }

  async createAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    const s = this.#session(sessionId);
    if (s.agents.has(agent.agent_id))
      throw new SessionConflictError(`Agent ${agent.agent_id} already exists in session ${sessionId}.`);
    s.agents.set(agent.agent_id, { agent: copy(agent), messages: new Map() });
  }

  async readAgent(sessionId: string, agentId: string): Promise<SessionAgent | undefined> {
    const a = this.#sessions.get(sessionId)?.agents.get(agentId);
    return a ? copy(a.agent) : undefined;
  }

  async updateAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    this.#agent(sessionId, agent.agent_id).agent = copy(agent);
  }

  async createMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    const a = this.#agent(sessionId, agentId);
    if (a.messages.has(message.message_id))
      throw new SessionConflictError(`Message ${message.message_id} of agent ${agentId} already exists.`);
    a.messages.set(message.message_id, copy(message));
  }

  async readMessage(sessionId: string, agentId: string, messageId: number): Promise<SessionMessage | undefined> {
    const m = this.#sessions.get(sessionId)?.agents.get(agentId)?.messages.get(messageId);
    return m ? copy(m) : undefined;
  }

  async updateMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    const a = this.#agent(sessionId, agentId);
    if (!a.messages.has(message.message_id))
      throw new SessionNotFoundError(`Message ${message.message_id} of agent ${agentId} does not exist.`);
    a.messages.set(message.message_id, copy(message));
  }

  async listMessages(sessionId: string, agentId: string, options: ListMessagesOptions = {}): Promise<SessionMessage[]> {
    const a = this.#agent(sessionId, agentId);
    const ids = [...a.messages.keys()].sort((x, y) => x - y);
    const offset = options.offset ?? 0;
    const wanted = ids.filter((id) => id >= offset).slice(0, options.limit ?? Infinity);
    wanted.forEach((id, i) => {
      if (id !== offset + i) {
        throw new SessionCorruptError(
          `Message ${offset + i} of agent ${agentId} in session ${sessionId} is missing (the next stored is ${id}).`,
          {
            location: `${sessionId}/${agentId}/${offset + i}`,
          },
        );
      }
    });
    return wanted.map((id) => copy(a.messages.get(id) as SessionMessage));
  }

  async deleteMessages(sessionId: string, agentId: string, fromMessageId: number): Promise<void> {
    const a = this.#agent(sessionId, agentId);
    for (const id of [...a.messages.keys()]) if (id >= fromMessageId) a.messages.delete(id);
  }

  async createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    const s = this.#session(sessionId);
    if (s.multiAgents.has(multiAgent.id))
      throw new SessionConflictError(`Multi-agent ${multiAgent.id} already exists in session ${sessionId}.`);
    s.multiAgents.set(multiAgent.id, { multiAgent: copy(multiAgent), nodes: new Map(), transitions: [] });
  }

  async readMultiAgent(sessionId: string, multiAgentId: string): Promise<SessionMultiAgent | undefined> {
    const m = this.#sessions.get(sessionId)?.multiAgents.get(multiAgentId);
    return m ? copy(m.multiAgent) : undefined;
  }

  async updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    this.#multi(sessionId, multiAgent.id).multiAgent = copy(multiAgent);
  }

  async deleteMultiAgent(sessionId: string, multiAgentId: string): Promise<void> {
    this.#session(sessionId).multiAgents.delete(multiAgentId);
  }

  async putNodeEntry(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): Promise<void> {
    this.#multi(sessionId, multiAgentId).nodes.set(nodeId, copy(entry));
  }

  async readNodeEntries(sessionId: string, multiAgentId: string): Promise<Record<string, JsonObject>> {
    return Object.fromEntries([...this.#multi(sessionId, multiAgentId).nodes].map(([k, v]) => [k, copy(v)]));
  }

  async appendTransitions(
    sessionId: string,
    multiAgentId: string,
    transitions: readonly NodeTransition[],
  ): Promise<void> {
    const m = this.#multi(sessionId, multiAgentId);
    for (const t of transitions) {
      if (t.seq !== m.transitions.length)
        throw new SessionConflictError(
          `Transition ${t.seq} of ${multiAgentId} is out of order (expected ${m.transitions.length}).`,
        );
      m.transitions.push(copy(t));
    }
  }

  async readTransitions(sessionId: string, multiAgentId: string): Promise<NodeTransition[]> {
    return copy(this.#multi(sessionId, multiAgentId).transitions);
  }
}
