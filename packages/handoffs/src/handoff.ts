import {
  ConfigurationError,
  defaultHandoffDescription,
  handoffToolName,
  isZodSchema,
  toJsonSchema,
  type Agent,
  type Handoff,
  type HandoffContext,
  type HandoffInputFilter,
  type JsonSchema,
} from '@skein/core';
import type { z } from 'zod';

/** Options of {@link handoff}. Every option is optional; `handoff(agent)` equals listing the agent directly. */
export interface HandoffOptions<S extends z.ZodType = z.ZodType> {
  /** Tool name instead of `transfer_to_<agent_name>` (1-64 of a-z A-Z 0-9 _ -). */
  toolNameOverride?: string;
  /** Tool description instead of the default, which names the agent and appends its `handoffDescription`. */
  toolDescriptionOverride?: string;
  /** Runs when the model calls the handoff with valid input, before the transfer; may be async (start work early). A throw refuses the transfer. */
  onHandoff?: (context: HandoffContext, input: z.output<S>) => void | Promise<void>;
  /** A zod object schema for the arguments the model must pass; invalid arguments become an error tool result and no transfer. */
  inputType?: S;
  /** Reshapes the conversation the next agent receives (see `removeAllTools`, `nestHandoffHistory`, `composeFilters`). */
  inputFilter?: HandoffInputFilter;
  /** Whether the model is shown this handoff; a function is evaluated at every model call. Default `true`. */
  isEnabled?: boolean | ((context: HandoffContext) => boolean | Promise<boolean>);
  /** Per-handoff override of the orchestrator's nested-history setting (only used when no input filter applies). */
  nestHandoffHistory?: boolean;
}

const KNOWN = new Set([
  'toolNameOverride',
  'toolDescriptionOverride',
  'onHandoff',
  'inputType',
  'inputFilter',
  'isEnabled',
  'nestHandoffHistory',
]);
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const NO_INPUT: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

function isAgentLike(value: unknown): value is Agent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { invoke?: unknown }).invoke === 'function' &&
    typeof (value as { name?: unknown }).name === 'string'
  );
}

function checkOptions(agent: unknown, options: HandoffOptions<z.ZodType>): asserts agent is Agent {
  if (!isAgentLike(agent))
    throw new ConfigurationError(
      'handoff(agent, options) needs the agent to transfer to as its first argument, e.g. handoff(refundAgent).',
    );
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError(`handoff(${agent.name}, options): options must be an object.`);
  const unknown = Object.keys(options).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0)
    throw new ConfigurationError(
      `Unknown handoff option(s): ${unknown.join(', ')}. Known options: ${[...KNOWN].join(', ')}.`,
    );
  const name = options.toolNameOverride;
  if (name !== undefined && (typeof name !== 'string' || !TOOL_NAME.test(name))) {
    throw new ConfigurationError(
      `handoff(${agent.name}): toolNameOverride ${JSON.stringify(name)} is invalid: use 1-64 characters from a-z, A-Z, 0-9, "_" and "-".`,
    );
  }
  if (options.inputType !== undefined && !isZodSchema(options.inputType)) {
    throw new ConfigurationError(
      `handoff(${agent.name}): inputType must be a zod object schema, e.g. z.object({ reason: z.string() }).`,
    );
  }
  for (const key of ['onHandoff', 'inputFilter'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function')
      throw new ConfigurationError(`handoff(${agent.name}): ${key} must be a function.`);
  }
  const enabled = options.isEnabled;
  if (enabled !== undefined && typeof enabled !== 'boolean' && typeof enabled !== 'function') {
    throw new ConfigurationError(
      `handoff(${agent.name}): isEnabled must be a boolean or a function (context) => boolean | Promise<boolean>.`,
    );
  }
}

function inputJsonSchema(agent: Agent, schema: z.ZodType | undefined): JsonSchema {
  if (!schema) return NO_INPUT;
  const json = toJsonSchema(schema);
  if (json['type'] !== 'object') {
    throw new ConfigurationError(
      `handoff(${agent.name}): inputType must describe an object (tool arguments are objects); wrap it, e.g. z.object({ value: schema }).`,
    );
  }
  return json;
}

/**
 * Declares a transfer to `agent`, shown to the model as the tool `transfer_to_<agent_name>`, with
 * optional overrides, typed input, a callback, an input filter and a dynamic enabled check.
 * @example
 * const escalate = handoff(escalationAgent, {
 *   inputType: z.object({ reason: z.string() }),
 *   onHandoff: (_ctx, input) => console.log(`Escalated: ${input.reason}`),
 *   inputFilter: removeAllTools,
 * });
 * const triage = new Agent({ model, name: 'Triage agent', handoffs: [billingAgent, escalate] });
 */
export function handoff<S extends z.ZodType = z.ZodType>(agent: Agent, options: HandoffOptions<S> = {}): Handoff {
  checkOptions(agent, options as HandoffOptions<z.ZodType>);
  const { isEnabled, onHandoff } = options;
  return {
    kind: 'handoff',
    agent,
    toolName: options.toolNameOverride ?? handoffToolName(agent.name),
    toolDescription: options.toolDescriptionOverride ?? defaultHandoffDescription(agent),
    inputSchema: options.inputType,
    inputJsonSchema: inputJsonSchema(agent, options.inputType),
    inputFilter: options.inputFilter,
    nestHandoffHistory: options.nestHandoffHistory,
    isEnabled: typeof isEnabled === 'function' ? isEnabled : isEnabled === false ? () => false : () => true,
    onHandoff: onHandoff ? (context, input) => onHandoff(context, input as z.output<S>) : () => undefined,
  };
}
