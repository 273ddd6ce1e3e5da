import { SkeinError, type SkeinErrorOptions } from './skein-error.js';

/** Options or construction arguments that cannot work; the message says what to change. */
export class ConfigurationError extends SkeinError {
  constructor(message: string, options: SkeinErrorOptions = {}) {
    super(message, options, 'configuration');
  }
}
