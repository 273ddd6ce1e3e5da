import type { z } from 'zod';
import { ConfigurationError } from '../errors/configuration-errors.js';
import type { ToolSpec } from '../model/model.js';
import { findNonJson, type JsonSchema, type JsonValue } from '../types/json.js';
import type { ToolResult, ToolResultContent } from '../types/messages.js';
import { checkToolName, type AgentTool, type NeedsApproval, type ToolContext } from './agent-tool.js';
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
  return typeof v === 'object' && v !== null && typeof v.safeParse === 'function' && typeof v.toJSONSchema === 'function';
}

/** Converts a zod schema into the JSON Schema sent to models (a fresh object on every call). */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const json = schema.toJSONSchema({ io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json['$schema'];
  return json;
}

const jsonSchemas = new WeakMap<z.ZodType, JsonSchema>();

/**
 * The JSON Schema of `schema`, computed once per schema object and shared by every tool built from
 * it (a server that builds its tools per request converts each schema once). Treat it as read-only.
 */
function sharedJsonSchema(schema: z.ZodType): JsonSchema {
  let json = jsonSchemas.get(schema);
  if (json === undefined) {
    json = toJsonSchema(schema);
    jsonSchemas.set(schema, json);
  }
  return json;
}

/**
 * A tool built by {@link tool} (internal: not exported from the package): its fields and methods live on one small object (the callback and
 * the shared JSON Schema in private slots), and its spec is built on first use.
 */
export class ZodTool<S extends z.ZodType> implements FunctionTool<S> {
  readonly name: string;
  readonly inputSchema: S;
  declare readonly needsApproval?: NeedsApproval;
  readonly #description: string;
  readonly #callback: (input: z.output<S>, context: ToolContext) => unknown;
  readonly #json: JsonSchema;
  #spec: ToolSpec | undefined;

  constructor(options: ToolOptions<S>, json: JsonSchema) {
    this.name = options.name;
    this.#description = options.description;
    this.inputSchema = options.inputSchema;
    this.#callback = options.callback;
    this.#json = json;
    const ask = options.needsApproval;
    if (typeof ask === 'function') {
      const inputSchema = options.inputSchema;
      (this as { needsApproval?: NeedsApproval }).needsApproval = (input, context) => {
        const parsed = inputSchema.safeParse(input);
        return parsed.success ? ask(parsed.data, context) : false;
      };
    } else if (ask !== undefined) (this as { needsApproval?: NeedsApproval }).needsApproval = ask;
  }

  get spec(): ToolSpec {
    this.#spec ??= { name: this.name, description: this.#description, inputSchema: { json: this.#json } };
    return this.#spec;
  }

  async invoke(input: JsonValue, context: ToolContext): Promise<ToolResult> {
    const toolUseId = context.toolUse.toolUseId;
    const parsed = this.inputSchema.safeParse(input);
    if (!parsed.success) {
      return {
        toolUseId,
        status: 'error',
        content: [{ text: `Invalid input for tool ${this.name}: ${formatIssues(parsed.error.issues)}. Call it again with input matching its schema.` }],
      };
    }
    const value: unknown = await this.#callback(parsed.data, context);
    return { toolUseId, status: 'success', content: [toResultContent(value)] };
  }
}

/**
 * Declares a tool. Its JSON Schema is computed once per zod schema object and shared, so building
 * the same tools again (per request, per agent) costs a few small objects.
 * @example
 * const calculator = tool({
 *   name: 'calculator',
 *   description: 'Evaluates an arithmetic expression',
 *   inputSchema: z.object({ expression: z.string() }),
 *   callback: ({ expression }) => String(evaluate(expression)),
 * });
 */
export function tool<S extends z.ZodType>(options: ToolOptions<S>): FunctionTool<S> {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('tool() takes an options object: tool({ name, description, inputSchema, callback }).');
  const bad = typeof options.name === 'string' ? checkToolName(options.name) : `Tool name must be a string (got ${typeof options.name}).`;
  if (bad) throw new ConfigurationError(bad);
  if (!isZodSchema(options.inputSchema)) {
    throw new ConfigurationError(`tool(${options.name}): inputSchema must be a zod 4 schema, e.g. z.object({ city: z.string() }).`);
  }
  checkToolShapes(options);
  return new ZodTool(options, sharedJsonSchema(options.inputSchema));
}

/** The options a JavaScript caller can give of the wrong type, found here rather than when the model calls the tool. */
function checkToolShapes<S extends z.ZodType>(options: ToolOptions<S>): void {
  const o = options as unknown as Record<string, unknown>;
  if (typeof o['callback'] !== 'function') throw new ConfigurationError(`tool(${options.name}): callback must be a function (input, context) => result.`);
  if (o['description'] !== undefined && typeof o['description'] !== 'string') throw new ConfigurationError(`tool(${options.name}): description must be a string.`);
  const ask = o['needsApproval'];
  if (ask !== undefined && typeof ask !== 'boolean' && typeof ask !== 'function') {
    throw new ConfigurationError(`tool(${options.name}): needsApproval must be true, false or a function (input, context) => boolean.`);
  }
}

/** Converts a tool callback's return value into a tool result block. */
export function toResultContent(value: unknown): ToolResultContent {
  if (typeof value === 'string') return { text: value };
  if (value === undefined) return { json: null };
  if (findNonJson(value) === undefined) return { json: value as JsonValue };
  // Class instances, Dates and the like: keep what JSON keeps of them.
  return { json: JSON.parse(JSON.stringify(value) ?? 'null') as JsonValue };
}
