/**
 * Who sends a request: the `authorize` option's principal, decided on the request as the server
 * routed it (`RouteInfo`). `undefined` answers 401, a throw 403; a principal that is neither a
 * non-empty string nor an object with a non-empty string `id` is the server's misconfiguration (500).
 * Without `authorize`, everyone is `'anonymous'`.
 */
import type { Principal } from '@skein/core';
import { ProblemError } from '../http/problem.js';
import type { RouteInfo, ServerOptions } from '../options.js';

/** The principal everyone is without `authorize`. */
const ANONYMOUS = 'anonymous';

/** A principal and its id. */
export interface Authorized {
  principal: Principal;
  owner: string;
}

function idOf(principal: unknown): string | undefined {
  if (typeof principal === 'string') return principal.length > 0 && principal.length <= 512 ? principal : undefined;
  if (typeof principal === 'object' && principal !== null) return idOf((principal as { id?: unknown }).id);
  return undefined;
}

/** Runs `authorize` on `request`, routed as `route`. */
export async function authorizeRequest(
  options: ServerOptions,
  request: Request,
  route: RouteInfo,
): Promise<Authorized> {
  if (!options.authorize) return { principal: ANONYMOUS, owner: ANONYMOUS };
  let principal: Principal | undefined;
  try {
    principal = await options.authorize(request, route);
  } catch (error) {
    const why = error instanceof Error && error.message ? ` (${error.message.slice(0, 200)})` : '';
    throw new ProblemError(403, 'forbidden', 'Forbidden', `The request is not allowed${why}.`, {
      field: 'header.authorization',
    });
  }
  if (principal === undefined) {
    throw new ProblemError(
      401,
      'unauthorized',
      'Unauthorized',
      'The request has no valid credentials; send them (e.g. an authorization header) and try again.',
      { field: 'header.authorization' },
    );
  }
  const owner = idOf(principal);
  if (owner === undefined)
    throw new Error(
      'authorize() returned a principal that is neither a non-empty string nor an object with a string `id`.',
    );
  return { principal, owner };
}
