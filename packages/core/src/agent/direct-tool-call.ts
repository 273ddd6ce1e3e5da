import { ConcurrencyError } from '../errors/orchestration-errors.js';
import { ToolNotFoundError } from '../errors/tool-errors.js';
import type { Invocation, LoopHost } from '../loop/loop-host.js';
import { runTool } from '../loop/run-tool.js';
import { AgentMetrics } from '../metrics/agent-metrics.js';
import { assertJson } from '../state/agent-state.js';
import type { JsonValue } from '../types/json.js';
import { errorToolResult, type Message, type ToolResult, type ToolUse } from '../types/messages.js';
import type { InvocationState } from '../types/invocation-state.js';

/** Options of a direct tool call. */
export interface DirectToolCallOptions {
  /** Record the call in the history (default: the agent's `recordDirectToolCall`, itself default true). */
  recordDirectToolCall?: boolean;
  invocationState?: InvocationState;
  signal?: AbortSignal;
}

/** `agent.tool.<name>(input, options)`: runs a tool directly and resolves with its result. */
export type DirectToolCaller = Record<
  string,
  (input?: JsonValue, options?: DirectToolCallOptions) => Promise<ToolResult>
>;

function newToolUseId(name: string): string {
  return `tooluse_${name}_${Math.floor(Math.random() * 1e9)}`;
}

/** What the direct tool calls of one agent need of it. */
interface DirectCallConfig {
  recordByDefault: boolean;
  isRunning: () => boolean;
  initialize: () => Promise<void>;
  scope: () => string;
}

/**
 * Builds the `agent.tool` proxy. The agent initializes first (a session restores it), then a recorded
 * call appends what the seeds show: a user note with the input, the assistant toolUse, the user
 * toolResult, and an assistant note.
 */
export function createDirectToolCaller(host: LoopHost, config: DirectCallConfig): DirectToolCaller {
  const call = (name: string, input?: JsonValue, options?: DirectToolCallOptions): Promise<ToolResult> =>
    callDirectly(host, config, name, input, options);
  return new Proxy({} as DirectToolCaller, {
    get: (_target, prop) =>
      typeof prop === 'string'
        ? (input?: JsonValue, options?: DirectToolCallOptions) => call(prop, input, options)
        : undefined,
    has: (_target, prop) => typeof prop === 'string' && host.tools.has(prop),
    ownKeys: () => host.tools.names(),
    getOwnPropertyDescriptor: (_target, prop) =>
      typeof prop === 'string' && host.tools.has(prop)
        ? {
            enumerable: true,
            configurable: true,
            writable: false,
            value: undefined,
          }
        : undefined,
  });
}

/** One direct call: checked, run through the hooks as the loop runs a tool, and recorded when asked. */
async function callDirectly(
  host: LoopHost,
  config: DirectCallConfig,
  name: string,
  input: JsonValue = {},
  options: DirectToolCallOptions = {},
): Promise<ToolResult> {
  const tool = host.tools.get(name);
  if (!tool) {
    throw new ToolNotFoundError(
      `agent.tool.${name}: no tool named ${JSON.stringify(
        name,
      )}. Available tools: ${host.tools.names().join(', ') || 'none'}.`,
    );
  }
  assertJson(input, `Input of agent.tool.${name}`);
  const record = options.recordDirectToolCall ?? config.recordByDefault;
  if (record && config.isRunning()) {
    throw new ConcurrencyError(
      `agent.tool.${name} cannot be recorded while the agent is running; pass { recordDirectToolCall: false } or wait for the invocation.`,
    );
  }
  await config.initialize();
  const toolUse: ToolUse = { toolUseId: newToolUseId(name), name, input };
  const outcome = await runTool(host, directInvocation(config, options), toolUse, tool, undefined);
  // A direct call has nobody to ask: a tool that needs an answer (or approval) does not run.
  const result =
    'interrupts' in outcome
      ? errorToolResult(
          toolUse.toolUseId,
          `Tool ${name} asked a person (${outcome.interrupts
            .map((i) => i.name)
            .join(', ')}) and was not run: a direct tool call cannot wait for an answer. Invoke the agent instead.`,
        )
      : outcome;
  if (record) await recordCall(host, toolUse, result);
  return result;
}

/** The invocation a direct call runs its tool in: nobody watches it, nothing resumes. */
function directInvocation(config: DirectCallConfig, options: DirectToolCallOptions): Invocation {
  const signal = options.signal ?? new AbortController().signal;
  return {
    signal,
    get aborted() {
      return signal.aborted;
    },
    signalMade: true,
    requestState: {},
    invocationState: options.invocationState ?? {},
    metrics: new AgentMetrics(),
    extra: undefined,
    handoffs: [],
    resume: undefined,
    budget: undefined,
    unobserved: true,
    emit: () => undefined,
    onMessageAdded: undefined,
    idempotencyScope: `direct/${config.scope()}`,
    guards: undefined, // a direct call is the application's own: no guardrail checks it
    principal: undefined,
    nested: undefined, // nobody reads a direct call's events
    path: '',
  };
}

/** Appends the four messages of a recorded direct call. */
async function recordCall(host: LoopHost, toolUse: ToolUse, result: ToolResult): Promise<void> {
  const { name, input } = toolUse;
  const messages: Message[] = [
    {
      role: 'user',
      content: [
        {
          text: `agent.tool.${name} direct tool call.\nInput parameters: ${JSON.stringify(input)}\n`,
        },
      ],
    },
    { role: 'assistant', content: [{ toolUse }] },
    { role: 'user', content: [{ toolResult: result }] },
    {
      role: 'assistant',
      content: [{ text: `agent.tool.${name} was called.` }],
    },
  ];
  for (const message of messages) await host.appendMessage(message);
}
