/**
 * RFC 9457 problem documents: every error the server answers is one of these, as
 * `application/problem+json`, naming the field at fault and what to do. Never a stack trace.
 */

/** The media type of a problem document. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** Where the problem types are documented (each `type` is this plus `#<slug>`). */
const PROBLEM_BASE = 'https://skein.dev/problems';

/** A problem document (RFC 9457) with skein's extension members. */
export interface Problem {
  /** A URI naming the kind of problem: `https://skein.dev/problems#<slug>`. */
  type: string;
  /** A short summary of the kind of problem. */
  title: string;
  /** The HTTP status code. */
  status: number;
  /** What happened in this request, and what to do. */
  detail: string;
  /** The request path. */
  instance?: string;
  /** The request field at fault: `body.message`, `path.id`, `header.authorization`... */
  field?: string;
  /** Seconds to wait before trying again (429, 503; also sent as `retry-after`). */
  retryAfter?: number;
  /** Extra facts: the running turn (409), the pending interrupt ids (422)... */
  [extension: string]: unknown;
}

/** Thrown inside the server to answer with a problem document; anything else becomes a 500 without details. */
export class ProblemError extends Error {
  readonly problem: Problem;

  constructor(status: number, slug: string, title: string, detail: string, extra: Partial<Problem> = {}) {
    super(detail);
    this.name = 'ProblemError';
    this.problem = { type: `${PROBLEM_BASE}#${slug}`, title, status, detail, ...extra };
  }
}

/** A 400 naming the field: `badRequest('path.id', 'is too long: ...')`. */
export function badRequest(field: string, detail: string): ProblemError {
  return new ProblemError(400, 'invalid-request', 'The request is not valid', `${field} ${detail}`, { field });
}

/** A 404 that says the same whether the thing is missing or belongs to someone else. */
export function notFound(what: string, field: string): ProblemError {
  return new ProblemError(404, 'not-found', 'Not found', `${what} was not found.`, { field });
}

/** The response for a problem, with `retry-after` when it says so. */
export function problemResponse(problem: Problem, instance?: string): Response {
  const body: Problem = instance === undefined ? problem : { ...problem, instance };
  const headers: Record<string, string> = {
    'content-type': PROBLEM_MEDIA_TYPE,
    'cache-control': 'no-store',
  };
  if (problem.retryAfter !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil(problem.retryAfter)));
  return new Response(JSON.stringify(body), { status: problem.status, headers });
}

/** The problem for an error nobody turned into one: a 500 that reveals nothing of the error. */
export function internalProblem(): Problem {
  return {
    type: `${PROBLEM_BASE}#internal`,
    title: 'Internal server error',
    status: 500,
    detail: 'The server failed while answering this request. Try again; if it repeats, the server log has the cause.',
  };
}
