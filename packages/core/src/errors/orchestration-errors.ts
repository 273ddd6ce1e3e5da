import { SkeinError, type SkeinErrorOptions } from './skein-error.js';

/** An agent or orchestrator was invoked while it was already running. */
export class ConcurrencyError extends SkeinError {
  constructor(message: string, options: SkeinErrorOptions = {}) {
    super(message, options, 'concurrency');
  }
}

/** A multi-agent run could not proceed (a node failed, a limit was reached, an invalid state was restored). */
export class MultiAgentError extends SkeinError {
  constructor(message: string, options: SkeinErrorOptions = {}) {
    super(message, options, 'multi_agent');
  }
}
