import { ConfigurationError } from '../../errors/configuration-errors.js';
import { checkSessionId } from '../session-codec.js';

/**
 * The checks of a store's options, one set for every store: an options object, no option the store
 * does not know (a typo is an error, not a default), positive numbers and true or false.
 */

/** Refuses `options` that are not an object (`needs`: what to pass, e.g. `{ path: './sessions.db' }`) or that name an option outside `known`. */
export function checkStoreOptions(options: unknown, who: string, needs: string, known: ReadonlySet<string>): void {
  if (!options || typeof options !== 'object') throw new ConfigurationError(`${who} needs options: ${needs}.`);
  const unknown = Object.keys(options).filter((key) => !known.has(key));
  if (unknown.length > 0)
    throw new ConfigurationError(
      `${who} does not know the option ${unknown.join(', ')}; see its README for the options.`,
    );
}

/** A positive number option (`fallback` when absent), else a `ConfigurationError` naming it. */
export function positiveOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new ConfigurationError(`${name} must be a positive number (got ${JSON.stringify(value)}).`);
  return value;
}

/** A true-or-false option (`fallback` when absent), else a `ConfigurationError` naming it. */
export function flagOption(value: unknown, name: string, fallback = false): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean')
    throw new ConfigurationError(`${name} must be true or false (got ${JSON.stringify(value)}).`);
  return value;
}

/** A store's session manager options, split: the session id (checked) and the options of the store's repository. */
export function sessionOptions<O extends { sessionId: string }>(
  options: O,
): { sessionId: string; store: Omit<O, 'sessionId'> } {
  const sessionId = options?.sessionId;
  checkSessionId(sessionId, 'session id');
  const { sessionId: _, ...store } = options;
  return { sessionId, store };
}
