/**
 * One mechanism for every guardrail of this package that reads text: a check of one string runs on
 * whatever the guardrail is given — the input's text, an output window or answer, every string of a
 * tool's input (before it runs) and of its result (after) — and its rewrites are put back where they
 * came from.
 */
import type {
  Guardrail,
  GuardrailContext,
  GuardrailDecision,
  GuardrailSubject,
  GuardrailWhere,
  JsonValue,
  ToolResult,
} from '@skein/core';

/** What a check says of one string: nothing (`undefined`), a rewrite, or why to block. */
export type TextFinding = { readonly rewrite: string } | { readonly block: string } | undefined;

/** Checks one string (for the guardrail at `where`). */
export type TextCheck = (text: string, context: GuardrailContext) => TextFinding;

/** Options every text guardrail takes. */
export interface TextGuardrailOptions {
  /** The guardrail's name (in `GuardrailTripped`, events, stored records). */
  name?: string;
  /** Where it checks; default everywhere it is given (input, output, tool). */
  where?: readonly GuardrailWhere[];
  /** How long an async check may take, ms. */
  timeoutMs?: number;
}

const PASS: GuardrailDecision = { action: 'pass' };

/** A guardrail that runs `check` on every string of its subject. */
export function textGuardrail(name: string, check: TextCheck, options: TextGuardrailOptions = {}): Guardrail {
  const where = options.where;
  return {
    name: options.name ?? name,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    check: (subject: GuardrailSubject, context: GuardrailContext): GuardrailDecision => {
      if (where && !where.includes(context.where)) return PASS;
      if (!('tool' in subject)) return decideText(check(subject.text, context));
      const blocked: string[] = [];
      const rewrite = (text: string): string => {
        const finding = check(text, context);
        if (finding && 'block' in finding) blocked.push(finding.block);
        return finding && 'rewrite' in finding ? finding.rewrite : text;
      };
      if (subject.phase === 'before') {
        const input = mapStrings(subject.input, rewrite);
        if (blocked.length > 0) return { action: 'block', reason: blocked[0] as string };
        return input === subject.input ? PASS : { action: 'rewrite', input };
      }
      const result = mapResult(subject.result, rewrite);
      if (blocked.length > 0) return { action: 'block', reason: blocked[0] as string };
      return result === subject.result ? PASS : { action: 'rewrite', result };
    },
  };
}

/** The decision on the text of an input or output. */
function decideText(finding: TextFinding): GuardrailDecision {
  if (!finding) return PASS;
  return 'block' in finding ? { action: 'block', reason: finding.block } : { action: 'rewrite', text: finding.rewrite };
}

/** `value` with every string mapped; the same object when nothing changed. */
function mapStrings(value: JsonValue, map: (text: string) => string): JsonValue {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) {
    const out = value.map((v) => mapStrings(v, map));
    return out.some((v, i) => v !== value[i]) ? out : value;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = mapStrings(v, map);
      if (out[k] !== v) changed = true;
    }
    return changed ? out : value;
  }
  return value;
}

/** A tool result with the strings of its text and JSON blocks mapped; the same object when nothing changed. */
function mapResult(result: ToolResult, map: (text: string) => string): ToolResult {
  let changed = false;
  const content = result.content.map((block) => {
    if ('text' in block) {
      const text = map(block.text);
      if (text === block.text) return block;
      changed = true;
      return { text };
    }
    if ('json' in block) {
      const json = mapStrings(block.json, map);
      if (json === block.json) return block;
      changed = true;
      return { json };
    }
    return block;
  });
  return changed ? { ...result, content } : result;
}
