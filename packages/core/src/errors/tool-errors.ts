import { SkeinError, type SkeinErrorOptions } from './skein-error.js';

/** One problem found when validating a value against a schema. */
export interface ValidationIssue {
  /** A stable code, e.g. `invalid_type` (zod's codes). */
  code: string;
  /** Where in the value, e.g. `['address', 'city']`. */
  path: (string | number)[];
  message: string;
}

/** Options of {@link StructuredOutputError}. */
export interface StructuredOutputErrorOptions extends SkeinErrorOptions {
  issues?: ValidationIssue[];
}

/** The model did not produce output matching the schema, even after being asked again. */
export class StructuredOutputError extends SkeinError {
  readonly issues: ValidationIssue[];

  constructor(message: string, options: StructuredOutputErrorOptions = {}) {
    super(message, options, 'structured_output');
    this.issues = options.issues ?? [];
  }
}

/** A direct tool call (`agent.tool.x(...)`) named a tool the agent does not have. */
export class ToolNotFoundError extends SkeinError {
  constructor(message: string, options: SkeinErrorOptions = {}) {
    super(message, options, 'tool_not_found');
  }
}
