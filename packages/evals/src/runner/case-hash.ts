/** A short, stable fingerprint of a case, so a resumed evaluation re-runs only cases that changed. */
import { createHash } from 'node:crypto';
import type { EvalCase } from '../case/eval-case.js';

/** JSON with sorted keys; regular expressions as their source, schemas as `[schema]`. */
function stable(value: unknown): string {
  if (value instanceof RegExp) return JSON.stringify(String(value));
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    if (typeof (value as { safeParse?: unknown }).safeParse === 'function') return '"[schema]"';
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function caseHash(evalCase: EvalCase): string {
  return createHash('sha256').update(stable(evalCase)).digest('hex').slice(0, 16);
}
