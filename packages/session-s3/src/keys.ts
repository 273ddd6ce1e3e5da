/**
 * The key layout of Strands Agents' S3 session store, under an optional prefix:
 * `<prefix>/session_<id>/session.json`, `.../agents/agent_<id>/agent.json`,
 * `.../agents/agent_<id>/messages/message_<n>.json`, `.../multi_agents/multi_agent_<id>/multi_agent.json`,
 * plus skein's node entries and transitions under the orchestrator's folder. Every id is checked
 * before it gets here (core's `SessionStore`, the repository's base).
 */
export class S3Keys {
  readonly #root: string;

  /** `prefix` loses its leading and trailing slashes; an empty prefix puts sessions at the bucket root. */
  constructor(prefix: string) {
    const trimmed = prefix.replace(/^\/+|\/+$/g, '');
    this.#root = trimmed === '' ? '' : `${trimmed}/`;
  }

  /** `<prefix>/session_<id>/` (with the trailing slash, for listing and deleting). */
  sessionDir(sessionId: string): string {
    return `${this.#root}session_${sessionId}/`;
  }

  /** The writer's lease on the session (skein's; Strands Agents does not read it). */
  lease(sessionId: string): string {
    return `${this.sessionDir(sessionId)}.skein-lease.json`;
  }

  session(sessionId: string): string {
    return `${this.sessionDir(sessionId)}session.json`;
  }

  agentDir(sessionId: string, agentId: string): string {
    return `${this.sessionDir(sessionId)}agents/agent_${agentId}/`;
  }

  agent(sessionId: string, agentId: string): string {
    return `${this.agentDir(sessionId, agentId)}agent.json`;
  }

  messagesDir(sessionId: string, agentId: string): string {
    return `${this.agentDir(sessionId, agentId)}messages/`;
  }

  message(sessionId: string, agentId: string, messageId: number): string {
    return `${this.messagesDir(sessionId, agentId)}message_${messageId}.json`;
  }

  multiAgentDir(sessionId: string, multiAgentId: string): string {
    return `${this.sessionDir(sessionId)}multi_agents/multi_agent_${multiAgentId}/`;
  }

  multiAgent(sessionId: string, multiAgentId: string): string {
    return `${this.multiAgentDir(sessionId, multiAgentId)}multi_agent.json`;
  }

  nodesDir(sessionId: string, multiAgentId: string): string {
    return `${this.multiAgentDir(sessionId, multiAgentId)}nodes/`;
  }

  node(sessionId: string, multiAgentId: string, nodeId: string): string {
    return `${this.nodesDir(sessionId, multiAgentId)}node_${nodeId}.json`;
  }

  transitionsDir(sessionId: string, multiAgentId: string): string {
    return `${this.multiAgentDir(sessionId, multiAgentId)}transitions/`;
  }

  transition(sessionId: string, multiAgentId: string, seq: number): string {
    return `${this.transitionsDir(sessionId, multiAgentId)}transition_${seq}.json`;
  }
}

/**
 * The number in a listed key `<dir><stem>_<n>.json`, or `undefined` when the key is not of that form
 * (other files a user left there are ignored, as Strands does).
 */
export function numberedKey(key: string, dir: string, stem: string): number | undefined {
  const rest = key.slice(dir.length);
  const match = new RegExp(`^${stem}_(0|[1-9][0-9]{0,15})\\.json$`).exec(rest);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The `<id>` of a listed key `<dir>node_<id>.json`, or `undefined`. */
export function nodeIdOfKey(key: string, dir: string): string | undefined {
  const rest = key.slice(dir.length);
  const match = /^node_(.+)\.json$/.exec(rest);
  return match?.[1];
}
