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

/** Converts a zod schema into the JSON Schema sent to models. */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const json = schema.toJSONSchema({ io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json['$schema'];
  return json;
}

/**
 * Declares a tool.
 * @example
 * const calculator = tool({
 *   name: 'calculator',
 *   description: 'Evaluates an arithmetic expression',
 *   inputSchema: z.object({ expression: z.string() }),
 *   callback: ({ expression }) => String(evaluate(expression)),
 * });
 */
export function tool<S extends z.ZodType>(options: ToolOptions<S>): FunctionTool<S> {
  const bad = checkToolName(options.name);
  if (bad) throw new ConfigurationError(bad);
  if (!isZodSchema(options.inputSchema)) {
    throw new ConfigurationError(`tool(${options.name}): inputSchema must be a zod 4 schema, e.g. z.object({ city: z.string() }).`);
  }
  const spec: ToolSpec = {
    name: options.name,
    description: options.description,
    inputSchema: { json: toJsonSchema(options.inputSchema) },
  };
  const { name, inputSchema, callback } = options;
  const ask = options.needsApproval;
  const needsApproval: NeedsApproval | undefined =
    typeof ask === 'function'
      ? (input, context) => {
          const parsed = inputSchema.safeParse(input);
          return parsed.success ? ask(parsed.data, context) : false;
        }
      : ask;
  return {
    name,
    spec,
    inputSchema,
    ...(needsApproval !== undefined ? { needsApproval } : {}),
    async invoke(input: JsonValue, context: ToolContext): Promise<ToolResult> {
      const toolUseId = context.toolUse.toolUseId;
      const parsed = inputSchema.safeParse(input);
      if (!parsed.success) {
        return {
          toolUseId,
          status: 'error',
          content: [{ text: `Invalid input for tool ${name}: ${formatIssues(parsed.error.issues)}. Call it again with input matching its schema.` }],
        };
      }
      const value: unknown = await callback(parsed.data, context);
      return { toolUseId, status: 'success', content: [toResultContent(value)] };
    },
  };
}

/** Converts a tool callback's return value into a tool result block. */
export function toResultContent(value: unknown): ToolResultContent {
  if (typeof value === 'string') return { text: value };
  if (value === undefined) return { json: null };
  if (findNonJson(value) === undefined) return { json: value as JsonValue };
  // Class instances, Dates and the like: keep what JSON keeps of them.
  return { json: JSON.parse(JSON.stringify(value) ?? 'null') as JsonValue };
}
