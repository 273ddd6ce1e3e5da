/**
 * Handoffs as core's values: what an agent offers (`Handoff`, shown to the model as a
 * `transfer_to_<agent>` tool), what its result asks for (`HandoffRequest`), and how an agent listed
 * in `handoffs` becomes a default handoff. The loop ends a turn on one; it performs no transfer.
 * Building handoffs with options (`handoff()`), input filters, nested history and the recommended
 * prompt are `@skein/handoffs`; performing the transfer is the orchestrator's (`@skein/swarm`, or a
 * loop of your own).
 */
import type { IssueLike } from '../tools/format-issues.js';
import type { JsonSchema } from '../types/json.js';
import type { Message } from '../types/messages.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { AgentHandle } from './agent-handle.js';

/** What handoff callbacks (`isEnabled`, `onHandoff`) receive. */
export interface HandoffContext {
  /** The agent that is handing off. */
  agent: AgentHandle;
  /** The invocation state of the running invocation. */
  invocationState: InvocationState;
}

/**
 * The conversation a handoff passes on, which an input filter may reshape.
 * - `inputHistory`: what the run started with (the task as messages)
 * - `preHandoffItems`: messages produced before the handing-off agent's turn
 * - `newItems`: the handing-off agent's turn, ending with the handoff call and its result
 */
export interface HandoffInputData {
  inputHistory: readonly Message[];
  preHandoffItems: readonly Message[];
  newItems: readonly Message[];
  context?: HandoffContext;
}

/** Reshapes what the next agent receives; a pure (possibly async) function. */
export type HandoffInputFilter = (data: HandoffInputData) => HandoffInputData | Promise<HandoffInputData>;

/**
 * What checks a handoff's input: a zod schema, or anything with zod's `safeParse` shape (a package
 * that must not load zod, such as a swarm's default transfer, writes its own).
 */
export interface InputValidator {
  safeParse(
    input: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: readonly IssueLike[] } };
}

/**
 * A transfer to another agent, shown to the model as a tool `transfer_to_<agent>`. Build one with
 * `handoff()` from `@skein/handoffs`; an `Agent` listed in `handoffs` becomes a default one.
 */
export interface Handoff {
  readonly kind: 'handoff';
  /** The agent that takes over. */
  readonly agent: AgentHandle;
  readonly toolName: string;
  readonly toolDescription: string;
  /** Validates the model's arguments before the transfer; `undefined` accepts any object. */
  readonly inputSchema: InputValidator | undefined;
  readonly inputJsonSchema: JsonSchema;
  readonly inputFilter: HandoffInputFilter | undefined;
  /** Per-handoff override of nested history; `undefined` follows the orchestrator's setting. */
  readonly nestHandoffHistory: boolean | undefined;
  /** Whether the model is shown this handoff at this model call. */
  isEnabled(context: HandoffContext): boolean | Promise<boolean>;
  /** Runs when the model calls the handoff with valid input, before the transfer. */
  onHandoff(context: HandoffContext, input: unknown): void | Promise<void>;
}

/** A transfer the model asked for; the orchestrator running the agent performs it. */
export interface HandoffRequest {
  readonly handoff: Handoff;
  /** Shorthand for `handoff.agent`. */
  readonly target: AgentHandle;
  /** The validated arguments the model passed. */
  readonly input: unknown;
  readonly toolUseId: string;
}

/** `transfer_to_<name>`: lower-cased, every run of characters outside [a-z0-9] turned into one `_`. */
export function handoffToolName(agentName: string): string {
  return `transfer_to_${agentName.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
}

/** The default tool description: names the agent and appends its `handoffDescription`. */
export function defaultHandoffDescription(agent: AgentHandle): string {
  const extra = agent.handoffDescription ? ` ${agent.handoffDescription}` : '';
  return `Handoff to the ${agent.name} agent to handle the request.${extra}`;
}

/** True when `value` is a {@link Handoff} (and not an agent). */
export function isHandoff(value: unknown): value is Handoff {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'handoff';
}

/** The handoff of an `Agent` listed directly in `handoffs`: default name, description, no input. */
export function defaultHandoff(agent: AgentHandle): Handoff {
  return {
    kind: 'handoff',
    agent,
    toolName: handoffToolName(agent.name),
    toolDescription: defaultHandoffDescription(agent),
    inputSchema: undefined,
    inputJsonSchema: { type: 'object', properties: {}, additionalProperties: false },
    inputFilter: undefined,
    nestHandoffHistory: undefined,
    isEnabled: () => true,
    onHandoff: () => undefined,
  };
}

/** A handoff as given: plain agents become default handoffs. */
export function toHandoff(target: AgentHandle | Handoff): Handoff {
  return isHandoff(target) ? target : defaultHandoff(target);
}
