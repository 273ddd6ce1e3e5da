/**
 * A remote A2A agent, usable as a tool (`asTool`), as a Graph node or a Swarm member (`asAgent`), or
 * called directly (`send`). Calls are recorded (with a session manager: in its session) so a caller
 * that crashes resumes the remote task instead of starting it again.
 */
import type { AgentCard } from '@a2a-js/sdk';
import {
  Agent,
  ConfigurationError,
  errorToolResult,
  ExponentialBackoffRetry,
  InterruptRaised,
  toolBudgetScope,
  type AgentTool,
  type BudgetScope,
  type JsonValue,
  type Model,
  type RetryStrategy,
  type SessionManager,
  type ToolContext,
  type ToolResult,
  errorMessage,
  nestedReporter,
} from '@skein/core';
import { RemoteAgentError } from '../errors.js';
import { MemoryCallStore, SessionCallStore, type CallStore } from './call-store.js';
import { Connection, type HeadersOption } from './connection.js';
import { CALL_TOOL, RelayModel, type CallResultData } from './relay-model.js';
import { RemoteCaller, type CallAnswer } from './remote-call.js';
import type { ReportUpdate } from './call-progress.js';

/** Options of {@link RemoteAgent}. */
export interface RemoteAgentOptions {
  /** The agent's name in this run tree (node id, member name, tool name). */
  name: string;
  /** Its base URL; the card is read from `<url>/.well-known/agent-card.json`. */
  url: string;
  /** What it does (tool and handoff descriptions). Default: `Ask the <name> agent.` */
  description?: string;
  /** Where calls are recorded, so a caller that crashes resumes the remote task. Give it the session manager of what runs the agent (the Graph's, the Swarm's, the calling agent's). */
  sessionManager?: SessionManager;
  /** Headers for every request (authorization), or a function giving them. */
  headers?: HeadersOption;
  /** How transient faults are retried (as model calls are). Default `new ExponentialBackoffRetry()`; `null`: not retried. */
  retryStrategy?: RetryStrategy | null;
  /** Most time one call may take, answers waited for excluded. Default 600,000 ms. */
  timeoutMs?: number;
  /** Between two GetTask reads of a task followed without streaming. Default 500 ms. */
  pollIntervalMs?: number;
  /** Use streaming; default when the card says the agent streams. */
  streaming?: boolean;
  /**
   * Cancel the remote task (CancelTask) when the caller is cancelled. Default false: the remote task
   * goes on, and with a session manager the next run of the caller resumes it instead of asking again.
   */
  cancelOnAbort?: boolean;
  /** Preferred transport. Default: the card's order. */
  transport?: 'JSONRPC' | 'HTTP+JSON';
  /** Where the card is, relative to `url`. */
  cardPath?: string;
  fetch?: typeof fetch;
}

/**
 * What the remote task says while it works, as events of a nested run named after the agent in its
 * caller's stream (status messages and artifacts as its text), when someone watches that stream.
 */
function reporterFor(context: ToolContext, name: string): ReportUpdate | undefined {
  const report = nestedReporter(context, name);
  if (!report) return undefined;
  return ({ text }) => void report({ type: 'textDelta', data: `${text}\n` })?.catch(() => undefined);
}

const slug = (name: string): string => name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64) || 'remote';

const INPUT_SCHEMA = (what: string, key: string) => ({
  json: {
    type: 'object',
    properties: { [key]: { type: 'string', description: what } },
    required: [key],
    additionalProperties: false,
  },
});

type Reserved = Awaited<ReturnType<BudgetScope['reserveModelCall']>>;

export class RemoteAgent {
  readonly name: string;
  readonly url: string;
  readonly description: string;
  readonly #conn: Connection;
  readonly #caller: RemoteCaller;
  readonly #budgetModel: Model;

  constructor(options: RemoteAgentOptions) {
    if (!options || typeof options.name !== 'string' || options.name.trim() === '')
      throw new ConfigurationError('RemoteAgent needs a name: new RemoteAgent({ name, url }).');
    try {
      new URL(options.url);
    } catch {
      throw new ConfigurationError(
        `RemoteAgent ${options.name} needs an http(s) url (got ${JSON.stringify(options.url)}).`,
      );
    }
    this.name = options.name;
    this.url = options.url;
    this.description = options.description ?? `Ask the ${options.name} agent.`;
    this.#conn = new Connection({
      name: options.name,
      url: options.url,
      headers: options.headers,
      fetch: options.fetch,
      cardPath: options.cardPath,
      transport: options.transport,
      streaming: options.streaming,
    });
    const store: CallStore = options.sessionManager
      ? new SessionCallStore(options.sessionManager, slug(options.name))
      : new MemoryCallStore();
    this.#caller = new RemoteCaller(this.#conn, store, {
      cancelOnAbort: options.cancelOnAbort === true,
      retry: options.retryStrategy === undefined ? new ExponentialBackoffRetry() : options.retryStrategy,
      timeoutMs: options.timeoutMs ?? 600_000,
      pollIntervalMs: options.pollIntervalMs ?? 500,
    });
    this.#budgetModel = new RelayModel(options.name);
  }

  /** The agent's card (fetched and checked once). */
  async card(): Promise<AgentCard> {
    return (await this.#conn.connect()).card;
  }

  /**
   * Sends `text` and waits for the answer. `key` names the call (the same key after a crash resumes
   * the same remote task; default: a new one). A question from the agent is a `RemoteAgentError`
   * here (use `asTool` or `asAgent` to answer it).
   */
  send(text: string, options: { key?: string; signal?: AbortSignal } = {}): Promise<CallAnswer> {
    return this.#caller.call({
      key: options.key ?? `call-${crypto.randomUUID()}`,
      text,
      signal: options.signal ?? new AbortController().signal,
      ask: (name) => {
        throw new RemoteAgentError(`it asks for ${name}, and send() has nobody to ask; use asTool() or asAgent()`, {
          agent: this.name,
          url: this.url,
          failure: 'bad_answer',
        });
      },
    });
  }

  /** Runs one call for a tool use; the tool result says the answer, or why there is none. */
  async #callForTool(text: string, context: ToolContext, withData: boolean): Promise<ToolResult> {
    const id = context.toolUse.toolUseId;
    try {
      const answer = await this.#caller.call({
        // Stable across a retry, a stop and a crash re-run of this call: the remote task is found again.
        key: context.idempotencyKey,
        text,
        signal: context.signal,
        ask: (n, r) => context.interrupt(n, r),
        report: reporterFor(context, this.name),
      });
      const data: CallResultData = {
        ...(answer.taskId ? { taskId: answer.taskId } : {}),
        ...(answer.usage ? { usage: answer.usage } : {}),
      };
      return {
        toolUseId: id,
        status: 'success',
        content: withData
          ? [{ text: answer.text }, { json: { a2a: data as unknown as JsonValue } }]
          : [{ text: answer.text }],
      };
    } catch (error) {
      if (error instanceof InterruptRaised) throw error;
      const result = errorToolResult(id, errorMessage(error));
      if (withData && error instanceof RemoteAgentError) {
        const e = {
          detail: error.detail,
          failure: error.failure,
          agent: error.agent,
          url: error.url,
          ...(error.a2aCode !== undefined ? { a2aCode: error.a2aCode } : {}),
        };
        result.content.push({
          json: {
            a2a: {
              ...(error.taskId ? { taskId: error.taskId } : {}),
              error: e,
            },
          },
        });
      }
      return result;
    }
  }

  /**
   * The agent as a tool of another agent (`agent.asTool()` semantics): `{ input }` in, the remote
   * answer out; a failure is an error result naming the agent, the task and the cause; a question of
   * the remote agent pauses the caller (a skein interrupt), and the answer goes to the remote task.
   * A run-tree budget counts the call as a tool call, and as a model call of id `a2a:<name>` with the
   * tokens a skein server reports.
   */
  asTool(options: { name?: string; description?: string } = {}): AgentTool {
    const name = options.name ?? slug(this.name);
    return {
      name,
      spec: {
        name,
        description: options.description ?? this.description,
        inputSchema: INPUT_SCHEMA('What to ask the agent', 'input'),
      },
      invoke: async (raw, context) => {
        const input = raw && typeof raw === 'object' && !Array.isArray(raw) ? raw['input'] : undefined;
        if (typeof input !== 'string')
          return errorToolResult(context.toolUse.toolUseId, `Invalid input for tool ${name}: input must be a string.`);
        const scope = toolBudgetScope(context);
        let held: Reserved;
        if (scope) {
          held = await scope.reserveModelCall(this.#budgetModel, context.signal);
          if (held === undefined)
            return errorToolResult(context.toolUse.toolUseId, `${this.name} was not asked: the call was cancelled.`);
          if ('limit' in held)
            return errorToolResult(
              context.toolUse.toolUseId,
              `${this.name} was not asked: the run's ${held.limit} budget is spent (${held.spent} of ${held.max}).`,
            );
        }
        let usage: CallAnswer['usage'];
        try {
          const result = await this.#callForTool(input, context, true);
          const json = result.content.find((c) => 'json' in c);
          usage = json && 'json' in json ? (json.json as { a2a?: CallResultData }).a2a?.usage : undefined;
          result.content = result.content.filter((c) => !('json' in c));
          return result;
        } finally {
          if (scope && held && !('limit' in held))
            scope.settleModelCall(held, usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 });
        }
      },
    };
  }

  /**
   * The agent as a skein Agent, for a Graph node or a Swarm member: its model relays (it sends the
   * conversation it gets to the remote agent and answers with the reply), so the node's input or the
   * history handed off is the message, and the reply ends the node's or member's turn. A failed call
   * fails the node. A question of the remote agent is an interrupt at the node's path.
   */
  asAgent(options: { name?: string; description?: string } = {}): Agent {
    const description = options.description ?? this.description;
    const call: AgentTool = {
      name: CALL_TOOL,
      spec: {
        name: CALL_TOOL,
        description: `Sends a message to the remote agent ${this.name}.`,
        inputSchema: INPUT_SCHEMA('The message', 'message'),
      },
      invoke: async (raw, context) => {
        const message = raw && typeof raw === 'object' && !Array.isArray(raw) ? raw['message'] : undefined;
        return this.#callForTool(typeof message === 'string' ? message : '', context, true);
      },
    };
    return new Agent({
      name: options.name ?? this.name,
      description,
      handoffDescription: description,
      model: new RelayModel(this.name),
      tools: [call],
      retryStrategy: null,
    });
  }
}
