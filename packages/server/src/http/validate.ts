/**
 * Request validation: the JSON body read with a size limit, parsed by a zod schema, each failure a
 * problem document naming the field (`body.message`, `path.id`, `query.limit`) and what to do.
 */
import { jsonDeeperThan, readBodyBytes } from '@skein/core';
import type { z } from 'zod';
import type { Limits } from '../options.js';
import { badRequest, ProblemError } from './problem.js';

/**
 * Reads the body of `request` as JSON, refusing more than `limits.maxBodyBytes` (413, before reading
 * it), anything but JSON in UTF-8 (415, 400), and objects or arrays nested deeper than
 * `limits.maxJsonDepth` (400, before parsing).
 */
export async function readJsonBody(
  request: Request,
  limits: Pick<Limits, 'maxBodyBytes' | 'maxJsonDepth'>,
): Promise<unknown> {
  const maxBytes = limits.maxBodyBytes;
  const type = request.headers.get('content-type') ?? '';
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1]?.toLowerCase();
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type) || (charset !== undefined && charset !== 'utf-8')) {
    throw new ProblemError(
      415,
      'unsupported-media-type',
      'Unsupported media type',
      `header.content-type is ${type === '' ? 'missing' : JSON.stringify(type.slice(0, 80))}; send the body as JSON (UTF-8) with content-type: application/json.`,
      { field: 'header.content-type' },
    );
  }
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  // A declared length within the limit is enforced by the HTTP parser, so the body is read at once
  // (the Node adapter's fast path); a chunked body is read piece by piece against the limit.
  const text = Number.isFinite(declared)
    ? decode(new Uint8Array(await request.arrayBuffer()))
    : await readLimited(request, maxBytes);
  if (text.trim() === '') throw badRequest('body', 'is empty; send a JSON object.');
  if (jsonDeeperThan(text, limits.maxJsonDepth))
    throw badRequest(
      'body',
      `nests objects or arrays more than ${limits.maxJsonDepth} levels deep; send a flatter body (limits.maxJsonDepth).`,
    );
  try {
    return JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message.slice(0, 120) : 'it does not parse';
    throw badRequest('body', `is not valid JSON (${why}); send a JSON object.`);
  }
}

/** 413 for a body over `maxBytes`. */
export function tooLarge(maxBytes: number): ProblemError {
  return new ProblemError(
    413,
    'body-too-large',
    'Request body too large',
    `body is larger than ${maxBytes} bytes; send less (limits.maxBodyBytes).`,
    { field: 'body', maxBytes },
  );
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  const bytes = await readBodyBytes(request, maxBytes);
  if (bytes === undefined) throw tooLarge(maxBytes);
  return decode(bytes);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest('body', 'is not valid UTF-8; send JSON text encoded as UTF-8.');
  }
}

/** Parses `value` with `schema`; the first issue becomes a 400 naming `<where>.<path>`. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue ? issue.path.map(String).join('.') : '';
  const field = path === '' ? where : `${where}.${path}`;
  throw badRequest(field, describeIssue(issue));
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'is not valid.';
  if (issue.code === 'unrecognized_keys') {
    return `has unknown field(s) ${issue.keys.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}; remove them.`;
  }
  if (issue.code === 'invalid_type') {
    return `${issue.message.replace(/^Invalid input: /, 'is not valid: ')}.`;
  }
  if (issue.code === 'invalid_union')
    return 'is not valid: send a string, or a list of content blocks ({ text }, { image }, { document }).';
  const message = issue.message.startsWith('Invalid')
    ? issue.message.replace(/^Invalid/, 'is not a valid')
    : issue.message;
  return message.endsWith('.') ? message : `${message}.`;
}
