import type { z } from 'zod';
import { StructuredOutputError, type ValidationIssue } from '../errors/tool-errors.js';
import type { InvocationTools } from '../loop/loop-host.js';
import type { AgentTool } from '../tools/agent-tool.js';
import { formatIssues, toValidationIssues } from '../tools/format-issues.js';
import { toJsonSchema } from '../tools/tool.js';
import type { AgentResult } from './agent-result.js';
import type { InvokeOptions } from './agent-handle.js';
import type { Prompt } from './prompt.js';
import { describeExceeded } from '../budget/ledger.js';

/** Options of `agent.structuredOutput()`. */
export interface StructuredOutputOptions extends InvokeOptions {
  /** The tool name the model sees. Default: the schema's `.meta({ title })`, else `StructuredOutput`. */
  toolName?: string;
  /** The tool description the model sees. Default: the schema's description. */
  description?: string;
}

const MAX_ATTEMPTS = 2;

/**
 * Runs structured output: the schema becomes a tool the model is forced to call; its input is
 * validated; an invalid or missing answer is asked for once more, then `StructuredOutputError`.
 */
export async function runStructuredOutput<S extends z.ZodType>(
  schema: S,
  prompt: Prompt | undefined,
  options: StructuredOutputOptions,
  run: (prompt: Prompt | undefined, extra: InvocationTools) => Promise<AgentResult>,
): Promise<z.output<S>> {
  const meta = schema.meta() as { title?: unknown } | undefined;
  const name =
    options.toolName ??
    (typeof meta?.title === 'string' ? meta.title.replace(/[^A-Za-z0-9_-]+/g, '_') : 'StructuredOutput');
  const description =
    options.description ?? schema.description ?? `Return the final answer as ${name}. Call this tool exactly once.`;
  let attempts = 0;
  let captured: { value: z.output<S> } | undefined;
  let issues: ValidationIssue[] = [];
  const outputTool: AgentTool = {
    name,
    spec: { name, description, inputSchema: { json: toJsonSchema(schema) } },
    invoke: async (input, context) => {
      attempts++;
      const parsed = schema.safeParse(input);
      if (parsed.success) {
        captured = { value: parsed.data };
        return {
          toolUseId: context.toolUse.toolUseId,
          status: 'success',
          content: [{ text: 'Structured output recorded.' }],
        };
      }
      issues = toValidationIssues(parsed.error.issues);
      return {
        toolUseId: context.toolUse.toolUseId,
        status: 'error',
        content: [
          { text: `Invalid ${name}: ${formatIssues(parsed.error.issues)}. Call ${name} again with corrected input.` },
        ],
      };
    },
  };
  const extra: InvocationTools = {
    tools: [outputTool],
    toolChoice: { tool: { name } },
    shouldStop: () => captured !== undefined || attempts >= MAX_ATTEMPTS,
  };
  const first = await run(prompt, extra);
  if (!captured && first.budgetExceeded) throw budgetStop(name, first);
  if (!captured && attempts === 0) {
    attempts++;
    const second = await run(`Call the ${name} tool now to give your answer in the required format.`, extra);
    if (!captured && second.budgetExceeded) throw budgetStop(name, second);
  }
  if (captured) return captured.value;
  const why =
    issues.length > 0
      ? `: ${issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`
      : ' (the model did not call the output tool)';
  throw new StructuredOutputError(`The model did not produce a valid ${name} after ${MAX_ATTEMPTS} attempts${why}.`, {
    issues,
  });
}

/** A budget limit stopped the run before the model gave its answer. */
function budgetStop(name: string, result: AgentResult): StructuredOutputError {
  const why = result.budgetExceeded ? describeExceeded(result.budgetExceeded) : 'a budget limit was reached';
  return new StructuredOutputError(
    `No ${name}: the run stopped before the model answered because ${why}. Call structuredOutput again with a larger budget.`,
    { issues: [] },
  );
}
