import { SkeinError, type SkeinErrorOptions } from '@skein/core';

/** Why a remote agent call failed. */
export type RemoteFailure =
  /** The agent could not be reached (refused, reset, DNS), after retries. */
  | 'unreachable'
  /** The call took longer than its `timeoutMs`. */
  | 'timeout'
  /** The agent answered with a JSON-RPC or HTTP+JSON error (see `a2aCode`). */
  | 'protocol_error'
  /** The agent's task ended `failed`, `rejected` or `canceled`. */
  | 'task_failed'
  /** The agent card is missing fields or cannot be read. */
  | 'bad_card'
  /** The agent answered something that is not A2A (see the message). */
  | 'bad_response'
  /** An answer to the agent's question does not fit what it asked. */
  | 'bad_answer';

/** Options of {@link RemoteAgentError}. */
export interface RemoteAgentErrorOptions extends SkeinErrorOptions {
  agent: string;
  url: string;
  taskId?: string | undefined;
  failure: RemoteFailure;
  /** The protocol's error code, when the agent gave one (-32001 task not found, ...). */
  a2aCode?: number | undefined;
}

/**
 * A remote A2A agent could not answer: it is unreachable, timed out, answered with a protocol error,
 * or its task failed. The message names the agent, its URL, the task (when there was one) and the
 * cause; `failure` says which.
 */
export class RemoteAgentError extends SkeinError {
  readonly agent: string;
  readonly url: string;
  readonly taskId: string | undefined;
  readonly failure: RemoteFailure;
  readonly a2aCode: number | undefined;
  /** The cause in words, without the agent and task (the message has both). */
  readonly detail: string;

  constructor(message: string, options: RemoteAgentErrorOptions) {
    const task = options.taskId ? `, task ${options.taskId}` : '';
    super(`Remote agent ${options.agent} (${options.url}${task}): ${message}`, options, 'remote_agent');
    this.agent = options.agent;
    this.url = options.url;
    this.taskId = options.taskId;
    this.failure = options.failure;
    this.a2aCode = options.a2aCode;
    this.detail = message;
  }
}
