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

/** Whole words and phrases, case-insensitively, in one pattern: `\b` around ASCII words (fast), letter and digit lookarounds when one is not. */
function wordsPattern(words: readonly string[], ascii: boolean): RegExp {
  const alternatives = words.map(escape).join('|');
  if (ascii) return new RegExp(`\\b(?:${alternatives})\\b`, 'gi');
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})(?![\\p{L}\\p{N}])`, 'giu');
}

/**
 * True when `text` may hold one of `lowered` (ASCII words, lower-cased): a case-insensitive match of
 * an ASCII word is the same ASCII letters in any case, so a text whose lower case holds none of them
 * cannot match, and the pattern need not run (a native substring search is several times faster).
 */
function mayHold(text: string, lowered: readonly string[]): boolean {
  const lower = text.toLowerCase();
  for (const word of lowered) if (lower.includes(word)) return true;
  return false;
}

/**
 * A deny-list of words, phrases and patterns on prompts, answers (each window before it is shown)
 * and tool calls: blocked or redacted.
 * @example
 * denyList({ words: ['wire transfer', 'gift card'], patterns: [/\bsk-[A-Za-z0-9]{20,}\b/] })
 */
export function denyList(options: DenyListOptions): Guardrail {
  const words = options.words ?? [];
  const ascii = words.every((w) => /^[\x20-\x7e]*$/.test(w) && /^\w/.test(w) && /\w$/.test(w));
  const wordsRe = words.length > 0 ? wordsPattern(words, ascii) : undefined;
  const lowered = ascii ? words.map((w) => w.toLowerCase()) : undefined;
  const sources = [
    // Words in one pattern (one scan of the text), unless one needs the Unicode lookarounds.
    ...(wordsRe ? [wordsRe] : []),
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
        if (pattern === wordsRe && lowered && !mayHold(out, lowered)) continue;
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
