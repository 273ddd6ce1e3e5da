/** What the studio throws for a module or option it cannot use: a `ConfigurationError` saying what to do. */
import { ConfigurationError } from '@skein/core';

/** Throws a `ConfigurationError` prefixed with where it came from. */
export function studioError(message: string): never {
  throw new ConfigurationError(`skein studio: ${message}`);
}
