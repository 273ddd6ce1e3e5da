/**
 * Hook events of a single agent.
 *
 * The taxonomy, in the order one invocation raises them:
 *
 *   AgentInitializedEvent            once, when the agent first initializes (restores its session)
 *   BeforeInvocationEvent            invoke / stream / structuredOutput starts
 *     MessageAddedEvent              the prompt is appended
 *     BeforeModelCallEvent           per cycle, before the model is called
 *     AfterModelCallEvent   (rev)    the model answered or failed; set `retry` to call it again
 *     MessageAddedEvent              the assistant message is appended
 *     BeforeToolCallEvent            per tool use; set `selectedTool` or `cancel`
 *     AfterToolCallEvent    (rev)    per tool use; set `result` to change what the model sees
 *     MessageAddedEvent              the tool results are appended
 *   AfterInvocationEvent    (rev)    always, also when the invocation failed
 *
 * (rev): callbacks run in reverse registration order. Fields are readonly unless documented as writable.
 */
import type { StopReason } from '../model/model.js';
import type { JsonValue } from '../types/json.js';
import type { Message, ToolResult, ToolUse } from '../types/messages.js';
import type { AgentTool } from '../tools/agent-tool.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { AgentHandle } from '../agent/agent-handle.js';
import type { MemoryTarget } from '../memory/memory-target.js';

/** Base of single-agent hook events: every event carries the agent. */
export abstract class AgentHookEvent {
  readonly agent: AgentHandle;
  constructor(agent: AgentHandle) {
    this.agent = agent;
  }
}

/** The agent finished initializing (its session, if any, is restored). */
export class AgentInitializedEvent extends AgentHookEvent {}

/** An invocation starts. */
export class BeforeInvocationEvent extends AgentHookEvent {
  readonly invocationState: InvocationState;
  constructor(agent: AgentHandle, invocationState: InvocationState) {
    super(agent);
    this.invocationState = invocationState;
  }
}

/** An invocation ended, successfully or not. */
export class AfterInvocationEvent extends AgentHookEvent {
  static readonly reverseCallbacks = true;
  readonly invocationState: InvocationState;
  readonly stopReason: StopReason | undefined;
  readonly error: unknown;
  constructor(
    agent: AgentHandle,
    fields: { invocationState: InvocationState; stopReason?: StopReason; error?: unknown },
  ) {
    super(agent);
    this.invocationState = fields.invocationState;
    this.stopReason = fields.stopReason;
    this.error = fields.error;
  }
}

/** A message was appended to the agent's history. */
export class MessageAddedEvent extends AgentHookEvent {
  readonly message: Message;
  constructor(agent: AgentHandle, message: Message) {
    super(agent);
    this.message = message;
  }
}

/** The model is about to be called. Writable: `systemPrompt` (for this call only). */
export class BeforeModelCallEvent extends AgentHookEvent {
  readonly invocationState: InvocationState;
  /** Whose long-term memory the invocation reads and writes (`invoke(prompt, { memory })`), if it names one. */
  readonly memory: MemoryTarget | undefined;
  /** The system prompt this call sends: the agent's own; a hook may change it for this call (memory appends its part). */
  systemPrompt: string | undefined;
  /** The messages this call sends (the history, with a prompt still held back while parallel input guardrails run). */
  readonly messages: readonly Message[];
  readonly #warn: ((code: string, message: string) => Promise<void> | undefined) | undefined;
  constructor(
    agent: AgentHandle,
    invocationState: InvocationState,
    fields: {
      systemPrompt?: string | undefined;
      messages?: readonly Message[] | undefined;
      memory?: MemoryTarget | undefined;
      warn?: (code: string, message: string) => Promise<void> | undefined;
    } = {},
  ) {
    super(agent);
    this.invocationState = invocationState;
    this.systemPrompt = 'systemPrompt' in fields ? fields.systemPrompt : agent.systemPrompt;
    this.memory = fields.memory;
    this.messages = fields.messages ?? agent.messages;
    this.#warn = fields.warn;
  }

  /** Tells whoever watches the invocation (stream, listeners, callback handler) that something works worse than it could: a `warning` event. */
  async warn(code: string, message: string): Promise<void> {
    await this.#warn?.(code, message);
  }
}

/** What the model produced, when it succeeded. */
export interface ModelCallOutcome {
  message: Message;
  stopReason: StopReason;
}

/** The model answered (`stopResponse`) or failed (`error`). Writable: `retry`. */
export class AfterModelCallEvent extends AgentHookEvent {
  static readonly reverseCallbacks = true;
  readonly invocationState: InvocationState;
  readonly stopResponse: ModelCallOutcome | undefined;
  readonly error: unknown;
  /** Set to `true` to discard this response (or error) and call the model again. */
  retry = false;
  constructor(
    agent: AgentHandle,
    fields: { invocationState: InvocationState; stopResponse?: ModelCallOutcome; error?: unknown },
  ) {
    super(agent);
    this.invocationState = fields.invocationState;
    this.stopResponse = fields.stopResponse;
    this.error = fields.error;
  }
}

/** A tool is about to run. Writable: `selectedTool` (the tool to run instead), `cancel`. */
export class BeforeToolCallEvent extends AgentHookEvent {
  readonly toolUse: ToolUse;
  readonly invocationState: InvocationState;
  /** The tool that will run; `undefined` when the model named an unknown tool. Replace it to run another. */
  selectedTool: AgentTool | undefined;
  /** `true` or a message: the tool does not run and the model gets an error result with this message. */
  cancel: boolean | string = false;
  readonly #interrupt: ((name: string, reason?: JsonValue) => JsonValue) | undefined;
  constructor(
    agent: AgentHandle,
    fields: {
      toolUse: ToolUse;
      selectedTool: AgentTool | undefined;
      invocationState: InvocationState;
      interrupt?: (name: string, reason?: JsonValue) => JsonValue;
    },
  ) {
    super(agent);
    this.toolUse = fields.toolUse;
    this.selectedTool = fields.selectedTool;
    this.invocationState = fields.invocationState;
    this.#interrupt = fields.interrupt;
  }

  /**
   * Asks a person before the tool runs (Strands' shape): pauses the invocation the first time;
   * after a resume with an answer, returns it. Do not catch what it throws.
   */
  interrupt<R extends JsonValue = JsonValue>(name: string, reason?: JsonValue): R {
    if (!this.#interrupt)
      throw new Error('This BeforeToolCallEvent was not raised by an agent loop; it cannot interrupt.');
    return this.#interrupt(name, reason) as R;
  }
}

/** A tool ran (or failed, or was cancelled). Writable: `result`. */
export class AfterToolCallEvent extends AgentHookEvent {
  static readonly reverseCallbacks = true;
  readonly toolUse: ToolUse;
  readonly selectedTool: AgentTool | undefined;
  readonly invocationState: InvocationState;
  readonly error: unknown;
  /** The result the model will see; replace it to change that. */
  result: ToolResult;
  constructor(
    agent: AgentHandle,
    fields: {
      toolUse: ToolUse;
      selectedTool: AgentTool | undefined;
      invocationState: InvocationState;
      result: ToolResult;
      error?: unknown;
    },
  ) {
    super(agent);
    this.toolUse = fields.toolUse;
    this.selectedTool = fields.selectedTool;
    this.invocationState = fields.invocationState;
    this.result = fields.result;
    this.error = fields.error;
  }
}
