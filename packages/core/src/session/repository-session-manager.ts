import type { AgentHandle } from '../agent/agent-handle.js';
import { ConfigurationError } from '../errors/configuration-errors.js';
import { AfterInvocationEvent, AgentInitializedEvent, MessageAddedEvent } from '../hooks/events.js';
import type { HookRegistry } from '../hooks/hook-registry.js';
import type { Message } from '../types/messages.js';
import { AgentPersistence } from './agent-persistence.js';
import { MultiAgentSession } from './multi-agent-session.js';
import { checkSessionId } from './session-codec.js';
import type { SessionManager } from './session-manager.js';
import type { SessionRepository } from './session-repository.js';
import { nowIso, type Session } from './session-types.js';

/** Options of {@link RepositorySessionManager}. */
export interface RepositorySessionManagerOptions {
  /** The session to open or create. */
  sessionId: string;
  /** Where sessions are stored. */
  repository: SessionRepository;
}

/**
 * Persists agents and orchestrators through a {@link SessionRepository}. For an agent it restores
 * messages, state and conversation-manager state when the agent initializes, stores each added
 * message, and syncs state after each invocation. Orchestrators use {@link openMultiAgent}.
 *
 * A writer never goes on from a stale view: the manager starts the repository's view of the session
 * (`beginView`) before it reads it, so a store with claims (the file lock, the S3 lease) refuses this
 * writer's next write with `SessionConflictError`, writing nothing, once another writer has written
 * the session since (or held it when it was loaded). Then build the agent, Graph or Swarm again on a
 * new session manager. `release()` gives the claim up between turns and keeps the view.
 * @example
 * const agent = new Agent({ model, sessionManager: new RepositorySessionManager({ sessionId: 'user-1', repository }) });
 */
export class RepositorySessionManager implements SessionManager {
  readonly sessionId: string;
  readonly repository: SessionRepository;
  readonly #agents = new Map<AgentHandle, AgentPersistence>();
  readonly #ids = new Map<string, AgentHandle>();
  readonly #multiAgents = new Map<string, MultiAgentSession>();
  #session: Promise<Session> | undefined;

  constructor(options: RepositorySessionManagerOptions) {
    if (!options || typeof options !== 'object' || !options.repository) {
      throw new ConfigurationError('RepositorySessionManager needs { sessionId, repository }.');
    }
    checkSessionId(options.sessionId, 'session id');
    this.sessionId = options.sessionId;
    this.repository = options.repository;
  }

  /** Reads the session (this writer's view of it starts then), creating it on first use. */
  ensureSession(type: Session['session_type'] = 'AGENT'): Promise<Session> {
    this.#session ??= (async () => {
      await this.repository.beginView?.(this.sessionId);
      const existing = await this.repository.readSession(this.sessionId);
      if (existing) return existing;
      const now = nowIso();
      return this.repository.createSession({
        session_id: this.sessionId,
        session_type: type,
        created_at: now,
        updated_at: now,
      });
    })().catch((error: unknown) => {
      this.#session = undefined;
      throw error;
    });
    return this.#session;
  }

  /**
   * Gives up this writer's claim on the session (the file lock, the S3 lease), so another writer may
   * write it, and keeps the manager usable: its next write claims the session again, and fails with
   * `SessionConflictError` (writing nothing) if another writer wrote it in between. Call it between
   * turns when several processes serve one conversation; wait for the turn (`invoke`) to return first.
   */
  async release(): Promise<void> {
    await this.repository.release?.(this.sessionId);
  }

  /** Gives up this writer's claim on the session (as `release()`; the file and S3 managers also say what else they free). */
  close(): Promise<void> {
    return this.release();
  }

  registerHooks(registry: HookRegistry): void {
    registry.addCallback(AgentInitializedEvent, (event) => this.initializeAgent(event.agent));
    registry.addCallback(MessageAddedEvent, (event) => this.#onMessageAdded(event.agent, event.message));
    registry.addCallback(AfterInvocationEvent, (event) => {
      // An invocation that failed before the agent initialized (e.g. its restore failed) has nothing to sync.
      const persistence = this.#agents.get(event.agent);
      return persistence ? persistence.sync(event.agent) : undefined;
    });
  }

  /** Restores `agent` from the session, or stores it there when it is new. Two agents with one id are refused. */
  async initializeAgent(agent: AgentHandle): Promise<void> {
    const holder = this.#ids.get(agent.id);
    if (holder && holder !== agent) {
      throw new ConfigurationError(
        `Session ${this.sessionId} already holds an agent with id ${JSON.stringify(agent.id)}; give each agent of a session its own id (new Agent({ id })).`,
      );
    }
    if (holder === agent && this.#agents.has(agent)) return;
    const persistence = new AgentPersistence(this.repository, this.sessionId, agent.id);
    this.#ids.set(agent.id, agent);
    this.#agents.set(agent, persistence);
    try {
      await this.ensureSession('AGENT');
      await persistence.restore(agent);
    } catch (error) {
      this.#ids.delete(agent.id);
      this.#agents.delete(agent);
      throw error;
    }
  }

  /** Replaces what the session restores for `agent`'s latest message (e.g. to mask personal data). */
  async redactLatestMessage(agent: AgentHandle, redacted: Message): Promise<void> {
    await this.#persistence(agent).redactLatest(redacted);
  }

  /**
   * Opens the session of an orchestrator (Graph, Swarm) with id `multiAgentId`. Opening the same id
   * again returns the same handle; opening it with another `type` is refused.
   */
  async openMultiAgent(multiAgentId: string, type: string): Promise<MultiAgentSession> {
    checkSessionId(multiAgentId, 'orchestrator id');
    const open = this.#multiAgents.get(multiAgentId);
    if (open && open.type !== type) {
      throw new ConfigurationError(
        `Session ${this.sessionId} already has a ${open.type} orchestrator with id ${JSON.stringify(multiAgentId)}; give the ${type} another id.`,
      );
    }
    await this.ensureSession('MULTI_AGENT');
    const session =
      this.#multiAgents.get(multiAgentId) ?? new MultiAgentSession(this.repository, this.sessionId, multiAgentId, type);
    this.#multiAgents.set(multiAgentId, session);
    return session;
  }

  async #onMessageAdded(agent: AgentHandle, message: Message): Promise<void> {
    if (!this.#agents.has(agent)) {
      // A message added before the agent's first invocation (a recorded direct tool call): restore the
      // session first, so the message lands after the stored history instead of replacing it.
      const at = agent.messages.lastIndexOf(message);
      if (at >= 0) agent.messages.splice(at, 1);
      try {
        await agent.initialize();
      } finally {
        agent.messages.push(message);
      }
    }
    await this.#persistence(agent).append(message);
  }

  #persistence(agent: AgentHandle): AgentPersistence {
    const p = this.#agents.get(agent);
    if (!p)
      throw new ConfigurationError(
        `Agent ${agent.name} was not initialized with session ${this.sessionId}; call await agent.initialize() first.`,
      );
    return p;
  }
}
