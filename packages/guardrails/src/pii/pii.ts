import type { Guardrail, GuardrailContext } from '@skein/core';
import { textGuardrail, type TextGuardrailOptions } from '../text-guardrail.js';
import { findPii, redactPii, type FindPiiOptions, type PiiFinding } from './find-pii.js';

/** Options of {@link pii}. */
export interface PiiOptions extends FindPiiOptions, TextGuardrailOptions {
  /**
   * `redact` (default): replace each finding (`[email]`, `[phone]`, `[card]`, `[iban]`); `block`: a
   * tripwire naming the kinds found; `detect`: pass, and tell `onDetect`.
   */
  action?: 'redact' | 'block' | 'detect';
  /** The text that replaces a finding. Default `[<kind>]`. */
  replace?: (finding: PiiFinding) => string;
  /** Told of every text with findings (any action). */
  onDetect?: (findings: PiiFinding[], context: GuardrailContext) => void;
}

const label = (f: PiiFinding): string => `[${f.kind}]`;

/**
 * Personal data (e-mail, phone numbers, card numbers with a Luhn check, IBANs) in prompts, answers
 * (each window before it is shown) and tool calls: redacted, blocked or reported.
 * @example
 * new Agent({ model, inputGuardrails: [pii()], outputGuardrails: [pii()], toolGuardrails: [pii()] });
 */
export function pii(options: PiiOptions = {}): Guardrail {
  const action = options.action ?? 'redact';
  const replace = options.replace ?? label;
  return textGuardrail(
    'pii',
    (text, context) => {
      const findings = findPii(text, options);
      if (findings.length === 0) return undefined;
      options.onDetect?.(findings, context);
      if (action === 'detect') return undefined;
      if (action === 'block') {
        const kinds = [...new Set(findings.map((f) => f.kind))].join(', ');
        return { block: `personal data (${kinds})` };
      }
      return { rewrite: redactPii(text, findings, replace) };
    },
    options,
  );
}
