import path from 'node:path';
import { SessionNotFoundError } from '@skein/core';

/**
 * The file layout of Strands Agents' FileSessionManager, plus node entries and transitions:
 * ```
 * <root>/session_<id>/session.json
 *   agents/agent_<id>/agent.json, agents/agent_<id>/messages/message_<n>.json
 *   multi_agents/multi_agent_<id>/multi_agent.json, .../nodes/node_<nodeId>.json, .../transitions/transition_<seq>.json
 * ```
 * Ids are checked before they get here (core's `SessionStore`, the repository's base); every path is
 * also checked to stay under the root.
 */
export class SessionPaths {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  session(sessionId: string): string {
    return this.#inside(path.join(this.root, `session_${sessionId}`));
  }

  sessionFile(sessionId: string): string {
    return path.join(this.session(sessionId), 'session.json');
  }

  lockFile(sessionId: string): string {
    return path.join(this.session(sessionId), '.skein.lock');
  }

  /** The session's write generation, replaced at every claim (see `SessionViews`). */
  writerFile(sessionId: string): string {
    return path.join(this.session(sessionId), '.skein.writer');
  }

  agent(sessionId: string, agentId: string): string {
    return this.#inside(path.join(this.session(sessionId), 'agents', `agent_${agentId}`));
  }

  agentFile(sessionId: string, agentId: string): string {
    return path.join(this.agent(sessionId, agentId), 'agent.json');
  }

  messages(sessionId: string, agentId: string): string {
    return path.join(this.agent(sessionId, agentId), 'messages');
  }

  messageFile(sessionId: string, agentId: string, messageId: number): string {
    return path.join(this.messages(sessionId, agentId), `message_${messageId}.json`);
  }

  multiAgent(sessionId: string, multiAgentId: string): string {
    return this.#inside(path.join(this.session(sessionId), 'multi_agents', `multi_agent_${multiAgentId}`));
  }

  multiAgentFile(sessionId: string, multiAgentId: string): string {
    return path.join(this.multiAgent(sessionId, multiAgentId), 'multi_agent.json');
  }

  nodes(sessionId: string, multiAgentId: string): string {
    return path.join(this.multiAgent(sessionId, multiAgentId), 'nodes');
  }

  nodeFile(sessionId: string, multiAgentId: string, nodeId: string): string {
    return this.#inside(path.join(this.nodes(sessionId, multiAgentId), `node_${nodeId}.json`));
  }

  transitions(sessionId: string, multiAgentId: string): string {
    return path.join(this.multiAgent(sessionId, multiAgentId), 'transitions');
  }

  transitionFile(sessionId: string, multiAgentId: string, seq: number): string {
    return path.join(this.transitions(sessionId, multiAgentId), `transition_${seq}.json`);
  }

  /** Defence in depth: ids are already validated, but no path may leave the root. */
  #inside(p: string): string {
    const relative = path.relative(this.root, p);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
      throw new SessionNotFoundError(`The path ${p} would leave the session storage ${this.root}; use plain ids.`, {
        location: p,
      });
    }
    return p;
  }
}
