import type { ValidationIssue } from '../errors/tool-errors.js';

/** A zod-like issue: enough to format and convert. */
export interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  message: string;
}

/** Converts zod issues into skein's plain `ValidationIssue`s. */
export function toValidationIssues(issues: readonly IssueLike[]): ValidationIssue[] {
  return issues.map((issue) => ({
    code: issue.code,
    path: issue.path.map((key) => (typeof key === 'number' ? key : String(key))),
    message: issue.message,
  }));
}

/** One line naming each issue and where it is, e.g. `age: expected number, received string`. */
export function formatIssues(issues: readonly IssueLike[]): string {
  return issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
