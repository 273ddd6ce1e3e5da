/**
 * Every POST body bounded before anything reads it: larger than `maxBodyBytes` is HTTP 413 (read no
 * further; the HTTP server drains or closes the rest), nested deeper than `maxJsonDepth` is a malformed request
 * (JSON-RPC -32600, HTTP+JSON 400); either way in the binding's own error shape, and nothing is stored.
 */
import { jsonDeeperThan, readBodyBytes } from '@skein/core';
import type { MiddlewareHandler } from 'hono';
import { PATHS } from './card.js';

/** The limits a served target applies to request bodies. */
export interface BodyLimits {
  maxBodyBytes: number;
  maxJsonDepth: number;
}

/** The defaults: 1 MiB, 64 levels (as `@skein/server`'s). */
export const DEFAULT_BODY_LIMITS: BodyLimits = Object.freeze({ maxBodyBytes: 1024 * 1024, maxJsonDepth: 64 });

function refuse(path: string, status: 400 | 413, message: string): Response {
  const body = path.endsWith(PATHS.jsonRpc)
    ? { jsonrpc: '2.0', id: null, error: { code: -32600, message } }
    : { error: { code: status, status: 'INVALID_ARGUMENT', message, details: [] } };
  return Response.json(body, { status });
}

/** The middleware for a served target's routes. */
export function boundedBodies(limits: BodyLimits): MiddlewareHandler {
  const { maxBodyBytes, maxJsonDepth } = limits;
  return async (c, next) => {
    if (c.req.method !== 'POST' && c.req.method !== 'PUT') return next();
    const bytes = await readBodyBytes(c.req.raw, maxBodyBytes);
    if (bytes === undefined)
      return refuse(c.req.path, 413, `The request body is larger than ${maxBodyBytes} bytes; send less.`);
    const text = new TextDecoder().decode(bytes);
    if (jsonDeeperThan(text, maxJsonDepth))
      return refuse(
        c.req.path,
        400,
        `The request body nests more than ${maxJsonDepth} levels deep; send a flatter one.`,
      );
    c.req.raw = new Request(c.req.raw, { body: text });
    await next();
  };
}
