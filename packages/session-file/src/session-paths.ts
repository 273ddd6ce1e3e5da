import path from 'node:path';
import { SessionNotFoundError, checkSessionId } from '@skein/core';

/** Checks a message id or transition number before it becomes part of a file name. */
function checkIndex(value: unknown, what: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new SessionNotFoundError(`Invalid ${what} ${JSON.stringify(value)}: use an integer >= 0.`);
  }
}

/**
 * The file layout of Strands Agents' FileSessionManager, plus node entries and transitions:
 * ```
 * <root>/session_<id>/session.json
 *   agents/agent_<id>/agent.json, agents/agent_<id>/messages/message_<n>.json
 *   multi_agents/multi_agent_<id>/multi_agent.json, .../nodes/node_<nodeId>.json, .../transitions/transition_<seq>.json
 * ```
 * Every id is validated, and every path is checked to stay under the root.
 */
export class SessionPaths {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  session(sessionId: string): string {
    checkSessionId(sessionId, 'session id');
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
    checkSessionId(agentId, 'agent id');
    return this.#inside(path.join(this.session(sessionId), 'agents', `agent_${agentId}`));
  }

  agentFile(sessionId: string, agentId: string): string {
    return path.join(this.agent(sessionId, agentId), 'agent.json');
  }

  messages(sessionId: string, agentId: string): string {
    return path.join(this.agent(sessionId, agentId), 'messages');
  }

  messageFile(sessionId: string, agentId: string, messageId: number): string {
    checkIndex(messageId, 'message id');
    return path.join(this.messages(sessionId, agentId), `message_${messageId}.json`);
  }

  multiAgent(sessionId: string, multiAgentId: string): string {
    checkSessionId(multiAgentId, 'multi-agent id');
    return this.#inside(path.join(this.session(sessionId), 'multi_agents', `multi_agent_${multiAgentId}`));
  }

  multiAgentFile(sessionId: string, multiAgentId: string): string {
    return path.join(this.multiAgent(sessionId, multiAgentId), 'multi_agent.json');
  }

  nodes(sessionId: string, multiAgentId: string): string {
    return path.join(this.multiAgent(sessionId, multiAgentId), 'nodes');
  }

  nodeFile(sessionId: string, multiAgentId: string, nodeId: string): string {
    checkSessionId(nodeId, 'node id');
    return this.#inside(path.join(this.nodes(sessionId, multiAgentId), `node_${nodeId}.json`));
  }

  transitions(sessionId: string, multiAgentId: string): string {
    return path.join(this.multiAgent(sessionId, multiAgentId), 'transitions');
  }

  transitionFile(sessionId: string, multiAgentId: string, seq: number): string {
    checkIndex(seq, 'transition number');
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
