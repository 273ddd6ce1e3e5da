import type { Guardrail, GuardrailContext, GuardrailDecision, GuardrailSubject } from '@skein/core';

/** Options of {@link limit}. */
export interface LimitOptions {
  /** The guardrail's name. Default `limit`. */
  name?: string;
  /** Most characters of a prompt, an answer or a tool input (as JSON). */
  maxChars?: number;
  /** Most tokens, as `countTokens` counts them. */
  maxTokens?: number;
  /** Counts tokens. Default: characters / 4, rounded up (plug in a tokenizer, e.g. gpt-tokenizer's `countTokens`, for your model's). */
  countTokens?: (text: string) => number;
  /** What a too long answer gets: `retry` (default: the model is asked for a shorter one) or `block`. Prompts and tool inputs are blocked. */
  onOutput?: 'retry' | 'block';
}

const estimate = (text: string): number => Math.ceil(text.length / 4);

/**
 * A length and token limit on prompts, whole answers and tool inputs (stream windows pass: only the
 * whole answer is measured). A long prompt or tool input blocks; a long answer is asked again shorter.
 * @example
 * new Agent({ model, inputGuardrails: [limit({ maxTokens: 2_000 })], outputGuardrails: [limit({ maxChars: 1_200 })] });
 */
export function limit(options: LimitOptions): Guardrail {
  const { maxChars, maxTokens } = options;
  if (maxChars === undefined && maxTokens === undefined) throw new TypeError('limit() needs maxChars or maxTokens.');
  const count = options.countTokens ?? estimate;
  const over = (text: string): string | undefined => {
    if (maxChars !== undefined && text.length > maxChars) return `${text.length} characters, more than ${maxChars}`;
    if (maxTokens === undefined) return undefined;
    const tokens = count(text);
    return tokens > maxTokens ? `about ${tokens} tokens, more than ${maxTokens}` : undefined;
  };
  return {
    name: options.name ?? 'limit',
    check: (subject: GuardrailSubject, context: GuardrailContext): GuardrailDecision => {
      if ('final' in subject && !subject.final) return { action: 'pass' };
      if ('tool' in subject && subject.phase === 'after') return { action: 'pass' };
      const text = 'tool' in subject ? JSON.stringify(subject.input) : subject.text;
      const why = over(text);
      if (why === undefined) return { action: 'pass' };
      if (context.where === 'output' && options.onOutput !== 'block')
        return { action: 'retry', feedback: `Your answer is too long (${why}); answer more briefly.` };
      return { action: 'block', reason: `too long: ${why}` };
    },
  };
}
