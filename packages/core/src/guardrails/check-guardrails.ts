import { ConfigurationError } from '../errors/configuration-errors.js';

const LISTS = ['inputGuardrails', 'outputGuardrails', 'toolGuardrails'] as const;

/** Checks the guardrail options of an Agent, a Graph or a Swarm (`what` names them in the message). */
export function checkGuardrailOptions(options: object, what: string): void {
  const o = options as Record<string, unknown>;
  for (const key of LISTS) {
    const list = o[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new ConfigurationError(`${what} ${key} must be an array of guardrails.`);
    list.forEach((g: unknown, i) => {
      const guardrail = g as { name?: unknown; check?: unknown; timeoutMs?: unknown } | null;
      if (typeof guardrail !== 'object' || guardrail === null || typeof guardrail.check !== 'function')
        throw new ConfigurationError(`${what} ${key}[${i}] must be a guardrail: { name, check(subject, context) }.`);
      if (typeof guardrail.name !== 'string' || guardrail.name === '')
        throw new ConfigurationError(
          `${what} ${key}[${i}] needs a name (a non-empty string): it names the guardrail in GuardrailTripped.`,
        );
      const ms = guardrail.timeoutMs;
      if (ms !== undefined && (typeof ms !== 'number' || !(ms > 0)))
        throw new ConfigurationError(`${what} ${key}[${i}] (${guardrail.name}): timeoutMs must be a number of ms > 0.`);
    });
  }
  const settings = o['guardrailOptions'] as Record<string, unknown> | undefined;
  if (settings === undefined) return;
  const { maxRetries, windowChars } = settings;
  if (maxRetries !== undefined && (!Number.isInteger(maxRetries) || (maxRetries as number) < 0))
    throw new ConfigurationError(
      `${what} guardrailOptions.maxRetries must be an integer >= 0 (got ${String(maxRetries)}).`,
    );
  if (windowChars !== undefined && (!Number.isInteger(windowChars) || (windowChars as number) < 1))
    throw new ConfigurationError(
      `${what} guardrailOptions.windowChars must be an integer >= 1 (got ${String(windowChars)}).`,
    );
}
