import type { z } from 'zod';
import { ConfigurationError } from '../errors/configuration-errors.js';
import type { ToolSpec } from '../model/model.js';
import { findNonJson, type JsonSchema, type JsonValue } from '../types/json.js';
import type { ToolResult, ToolResultContent } from '../types/messages.js';
import { checkToolName, type AgentTool, type NeedsApproval, type ToolContext } from './agent-tool.js';
import type { Guardrail, ToolSubject } from '../guardrails/guardrail.js';
import { formatIssues } from './format-issues.js';

/** Options of {@link tool}. */
export interface ToolOptions<S extends z.ZodType> {
  /** The name the model calls the tool by: 1-64 of a-z, A-Z, 0-9, `_`, `-`. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** A zod object schema of the input; the model's input is validated against it before the callback runs. */
  inputSchema: S;
  /** Does the work. A string result becomes a text block, anything else a JSON block. */
  callback: (input: z.output<S>, context: ToolContext) => unknown;
  /**
   * Ask a person before running: `true`, or a function of the validated input (`false` for input that
   * fails validation, which never runs). The answer is `{ approved: boolean, message? }`; a denial
   * becomes an error result the model reads.
   */
  needsApproval?: NeedsApproval<z.output<S>>;
  /** Guardrails of this tool's calls (its input before it runs, its result after), after the agent's `toolGuardrails`. */
  guardrails?: readonly Guardrail<ToolSubject>[];
}

/** A tool defined by a zod schema and a callback. */
export interface FunctionTool<S extends z.ZodType = z.ZodType> extends AgentTool {
  readonly inputSchema: S;
}

/**
 * True when `value` is a zod 4 schema. Core only calls schema methods, so importing `@skein/core`
 * never loads zod: the user's own `import { z } from 'zod'` does.
 */
export function isZodSchema(value: unknown): value is z.ZodType {
  const v = value as { safeParse?: unknown; toJSONSchema?: unknown } | null;
  return (
    typeof v === 'object' && v !== null && typeof v.safeParse === 'function' && typeof v.toJSONSchema === 'function'
  );
}

/** Converts a zod schema into the JSON Schema sent to models (a fresh object on every call). */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const json = schema.toJSONSchema({ io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json['$schema'];
  return json;
}

/** How many distinct (name, description) specs are shared per schema; others are made per tool. */
const MAX_SHARED_SPECS = 16;

/** Per zod schema: its JSON Schema, and the specs of tools built from it by name and description. */
const shared = new WeakMap<z.ZodType, { json: JsonSchema; specs: Map<string, ToolSpec> }>();

/**
 * The spec of a tool, shared by every tool with the same schema object, name and description (a
 * server that builds its tools per request converts each schema once and allocates no spec). The
 * JSON Schema is computed once per schema object. Treat both as read-only.
 */
function sharedSpec(schema: z.ZodType, name: string, description: string): ToolSpec {
  let entry = shared.get(schema);
  if (entry === undefined) {
    entry = { json: toJsonSchema(schema), specs: new Map() };
    shared.set(schema, entry);
  }
  const key = `${name}\n${description}`;
  let spec = entry.specs.get(key);
  if (spec === undefined) {
    spec = { name, description, inputSchema: { json: entry.json } };
    // Descriptions made per request (with a user's name in them, say) must not grow this without bound.
    if (entry.specs.size < MAX_SHARED_SPECS) entry.specs.set(key, spec);
  }
  return spec;
}

/** Where a tool() keeps its callback: a symbol key, so the tool stays a plain object that spreads and copies whole. */
const CALLBACK = Symbol('skein.tool.callback');

interface ZodToolObject<S extends z.ZodType> extends FunctionTool<S> {
  readonly [CALLBACK]: (input: z.output<S>, context: ToolContext) => unknown;
}

/** The `invoke` of every tool() (one function for all, reading the tool through `this`). */
async function invokeZodTool<S extends z.ZodType>(
  this: ZodToolObject<S> | undefined,
  input: JsonValue,
  context: ToolContext,
): Promise<ToolResult> {
  if (typeof this?.[CALLBACK] !== 'function') {
    throw new TypeError(
      "A tool()'s invoke was called without its tool: call it as tool.invoke(input, context) (or bind it), not detached.",
    );
  }
  const toolUseId = context.toolUse.toolUseId;
  const parsed = this.inputSchema.safeParse(input);
  if (!parsed.success) {
    return {
      toolUseId,
      status: 'error',
      content: [
        {
          text: `Invalid input for tool ${this.name}: ${formatIssues(parsed.error.issues)}. Call it again with input matching its schema.`,
        },
      ],
    };
  }
  const value: unknown = await this[CALLBACK](parsed.data, context);
  return { toolUseId, status: 'success', content: [toResultContent(value)] };
}

/**
 * Declares a tool. Its JSON Schema is computed once per zod schema object and its spec shared by the
 * tools built alike, so building the same tools again (per request, per agent) costs one small object
 * each. The tool is a plain object: `{ ...calculator, invoke: wrapped }` keeps the rest working.
 * @example
 * const calculator = tool({
 *   name: 'calculator',
 *   description: 'Evaluates an arithmetic expression',
 *   inputSchema: z.object({ expression: z.string() }),
 *   callback: ({ expression }) => String(evaluate(expression)),
 * });
 */
export function tool<S extends z.ZodType>(options: ToolOptions<S>): FunctionTool<S> {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('tool() takes an options object: tool({ name, description, inputSchema, callback }).');
  const bad =
    typeof options.name === 'string'
      ? checkToolName(options.name)
      : `Tool name must be a string (got ${typeof options.name}).`;
  if (bad) throw new ConfigurationError(bad);
  if (!isZodSchema(options.inputSchema)) {
    throw new ConfigurationError(
      `tool(${options.name}): inputSchema must be a zod 4 schema, e.g. z.object({ city: z.string() }).`,
    );
  }
  checkToolShapes(options);
  const { name, inputSchema } = options;
  const spec = sharedSpec(inputSchema, name, options.description);
  const ask = options.needsApproval;
  const made: ZodToolObject<S> = { name, spec, inputSchema, invoke: invokeZodTool, [CALLBACK]: options.callback };
  const guarded = options.guardrails ? withGuardrails(made, options.guardrails) : made;
  if (ask === undefined) return guarded;
  const needsApproval: NeedsApproval =
    typeof ask === 'function'
      ? (input, context) => {
          const parsed = inputSchema.safeParse(input);
          return parsed.success ? ask(parsed.data, context) : false;
        }
      : ask;
  return { ...guarded, needsApproval };
}

/** The tool with its own guardrails (checked to be guardrails: a name and a check each). */
function withGuardrails<T extends AgentTool>(made: T, guardrails: readonly Guardrail<ToolSubject>[]): T {
  const ok =
    Array.isArray(guardrails) &&
    guardrails.every((g: unknown) => {
      const o = g as { name?: unknown; check?: unknown } | null;
      return typeof o === 'object' && o !== null && typeof o.name === 'string' && typeof o.check === 'function';
    });
  if (!ok)
    throw new ConfigurationError(
      `tool(${made.name}): guardrails must be an array of guardrails ({ name, check(subject, context) }).`,
    );
  return guardrails.length === 0 ? made : { ...made, guardrails: [...guardrails] };
}

/** The options a JavaScript caller can give of the wrong type, found here rather than when the model calls the tool. */
function checkToolShapes<S extends z.ZodType>(options: ToolOptions<S>): void {
  const o = options as unknown as Record<string, unknown>;
  if (typeof o['callback'] !== 'function')
    throw new ConfigurationError(`tool(${options.name}): callback must be a function (input, context) => result.`);
  if (o['description'] !== undefined && typeof o['description'] !== 'string')
    throw new ConfigurationError(`tool(${options.name}): description must be a string.`);
  const ask = o['needsApproval'];
  if (ask !== undefined && typeof ask !== 'boolean' && typeof ask !== 'function') {
    throw new ConfigurationError(
      `tool(${options.name}): needsApproval must be true, false or a function (input, context) => boolean.`,
    );
  }
}

/** Converts a tool callback's return value into a tool result block. */
function toResultContent(value: unknown): ToolResultContent {
  if (typeof value === 'string') return { text: value };
  if (value === undefined) return { json: null };
  if (findNonJson(value) === undefined) return { json: value as JsonValue };
  // Class instances, Dates and the like: keep what JSON keeps of them.
  return { json: JSON.parse(JSON.stringify(value) ?? 'null') as JsonValue };
}
