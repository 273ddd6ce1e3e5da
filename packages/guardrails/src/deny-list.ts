import type { Guardrail } from '@skein/core';
import { textGuardrail, type TextGuardrailOptions } from './text-guardrail.js';

/** Options of {@link denyList}. */
export interface DenyListOptions extends TextGuardrailOptions {
  /** Words and phrases, matched whole and case-insensitively. */
  words?: readonly string[];
  /** Patterns (a `g` flag is added when missing). */
  patterns?: readonly RegExp[];
  /** `block` (default): a tripwire; `redact`: each match replaced by `replacement`. */
  action?: 'block' | 'redact';
  /** What replaces a match when redacting. Default `[removed]`. */
  replacement?: string;
  /** The reason of a block. Default `contains "<the match>"`. */
  reason?: string;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A whole word or phrase, case-insensitively: `\b` for ASCII words (fast), letter and digit lookarounds for others. */
function wordPattern(word: string): RegExp {
  if (/^[\x20-\x7e]*$/.test(word) && /^\w/.test(word) && /\w$/.test(word))
    return new RegExp(`\\b${escape(word)}\\b`, 'gi');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(word)}(?![\\p{L}\\p{N}])`, 'giu');
}

/**
 * A deny-list of words, phrases and patterns on prompts, answers (each window before it is shown)
 * and tool calls: blocked or redacted.
 * @example
 * denyList({ words: ['wire transfer', 'gift card'], patterns: [/\bsk-[A-Za-z0-9]{20,}\b/] })
 */
export function denyList(options: DenyListOptions): Guardrail {
  const sources = [
    ...(options.words ?? []).map(wordPattern),
    ...(options.patterns ?? []).map((p) => (p.global ? p : new RegExp(p.source, `${p.flags}g`))),
  ];
  if (sources.length === 0) throw new TypeError('denyList() needs words or patterns to look for.');
  const redact = options.action === 'redact';
  const replacement = options.replacement ?? '[removed]';
  return textGuardrail(
    'deny-list',
    (text) => {
      let out = text;
      for (const pattern of sources) {
        pattern.lastIndex = 0;
        const match = pattern.exec(out);
        if (!match) continue;
        if (!redact) return { block: options.reason ?? `contains ${JSON.stringify(match[0])}` };
        out = out.replace(pattern, replacement);
      }
      return out === text ? undefined : { rewrite: out };
    },
    options,
  );
}
