import type { Guardrail, GuardrailContext, GuardrailDecision, GuardrailSubject } from '@skein/core';
import type { z } from 'zod';

/** Options of {@link schema}. */
export interface SchemaOptions {
  /** The guardrail's name. Default `schema`. */
  name?: string;
  /** As a tool guardrail: the tools whose input it checks. Default every tool it is given. */
  tools?: readonly string[];
  /** What a value that does not fit gets: `retry` (default: the model reads the issues and tries again) or `block`. */
  onInvalid?: 'retry' | 'block';
}

/** An answer's JSON: the whole text, or the first ```json fenced block in it. */
function jsonOf(text: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text);
  return JSON.parse(fenced ? (fenced[1] as string) : text);
}

/**
 * A zod schema on a tool's input (before it runs) or on a whole answer read as JSON (structured
 * output in text). A value that does not fit is asked again with the issues, or blocked.
 * @example
 * new Agent({ model, toolGuardrails: [schema(z.object({ amountEur: z.number().max(500) }), { tools: ['issue_refund'] })] });
 */
export function schema(shape: z.ZodType, options: SchemaOptions = {}): Guardrail {
  const fail = (what: string, issues: string): GuardrailDecision =>
    options.onInvalid === 'block'
      ? { action: 'block', reason: `${what} does not fit the schema: ${issues}` }
      : { action: 'retry', feedback: `${what} does not fit the schema: ${issues}` };
  const check = (value: unknown, what: string): GuardrailDecision => {
    const parsed = shape.safeParse(value);
    if (parsed.success) return { action: 'pass' };
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return fail(what, issues);
  };
  return {
    name: options.name ?? 'schema',
    check: (subject: GuardrailSubject, _context: GuardrailContext): GuardrailDecision => {
      if ('tool' in subject) {
        if (subject.phase !== 'before' || (options.tools && !options.tools.includes(subject.tool)))
          return { action: 'pass' };
        return check(subject.input, `The input of ${subject.tool}`);
      }
      if (!('final' in subject) || !subject.final) return { action: 'pass' };
      let value: unknown;
      try {
        value = jsonOf(subject.text);
      } catch {
        return fail('The answer', 'it is not JSON');
      }
      return check(value, 'The answer');
    },
  };
}
