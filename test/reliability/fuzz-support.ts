/**
 * What every bad-input fuzz case shares: a sandbox (a temp parent holding the storage root and an
 * `outside/` directory that symlinks point at), snapshots of a directory tree (a hash per entry, links
 * not followed) to prove nothing outside the root was written and nothing stored was changed, and the
 * check that an error is a documented skein error whose message names the problem.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SkeinError } from '@skein/core';

/** The outcome of one case. */
export interface FuzzCaseReport {
  category: string;
  name: string;
  /** `rejected`: a documented error; `accepted`: no error (then the case's own checks apply). */
  outcome: 'accepted' | 'rejected';
  error?: string;
  violations: string[];
}

/** A temp parent with the storage root (`store/`) and a directory outside it (`outside/`). */
export interface Sandbox {
  parent: string;
  root: string;
  outside: string;
  remove(): Promise<void>;
}

/** A stored JSON document, as the fuzz edits it. */
export type Json = Record<string, unknown>;

/** A mutation of a stored session; `names` is what a rejection's message must name. */
export interface Mutation {
  name: string;
  names: RegExp;
  apply(s: Sandbox, random: () => number): Promise<void>;
}

/** Rewrites the JSON file `rel` (under the sandbox's root) with `change` applied. */
export async function edit(s: Sandbox, rel: string, change: (doc: Json) => unknown): Promise<void> {
  const file = path.join(s.root, rel);
  await fs.writeFile(file, JSON.stringify(change(JSON.parse(await fs.readFile(file, 'utf8')) as Json), null, 2));
}

/** Makes a sandbox; `outside/` holds one file so a write through a link there shows. */
export async function sandbox(): Promise<Sandbox> {
  const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-fuzz-'));
  const root = path.join(parent, 'store');
  const outside = path.join(parent, 'outside');
  await fs.mkdir(root);
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'secret.txt'), 'not a session file\n');
  return { parent, root, outside, remove: () => fs.rm(parent, { recursive: true, force: true }) };
}

/**
 * Every entry under `dir` (relative path -> content hash, `dir`, or `link -> target`), links not
 * followed; `normalize` rewrites a file's text before hashing (to ignore a timestamp).
 */
export async function snapshot(dir: string, normalize?: (text: string) => string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (sub: string): Promise<void> => {
    const names = await fs.readdir(path.join(dir, sub)).catch(() => [] as string[]);
    for (const name of names) {
      const rel = path.join(sub, name);
      const full = path.join(dir, rel);
      const stat = await fs.lstat(full).catch(() => undefined);
      if (!stat) continue;
      if (stat.isSymbolicLink()) out.set(rel, `link -> ${await fs.readlink(full)}`);
      // The file store's write generation changes with every claim of the session (as the lock does),
      // and a failed invocation still syncs the agent record: bookkeeping, not stored data. Where it
      // is, is still compared.
      else if (name === '.skein.writer') out.set(rel, 'write generation');
      else if (stat.isDirectory()) {
        out.set(rel, 'dir');
        await walk(rel);
      } else {
        const bytes = await fs.readFile(full);
        out.set(
          rel,
          createHash('sha256')
            .update(normalize ? normalize(bytes.toString('utf8')) : bytes)
            .digest('hex'),
        );
      }
    }
  };
  await walk('');
  return out;
}

/** Drops `updated_at` values: a failed invocation still syncs the agent record (same data, a new timestamp). */
export const ignoreUpdatedAt = (text: string): string => text.replace(/"updated_at": "[^"]*"/g, '');

/** Entries of `before` that changed or vanished in `after`, and (unless `newAllowed`) entries that appeared. */
export function changes(
  before: Map<string, string>,
  after: Map<string, string>,
  newAllowed: (rel: string) => boolean = () => false,
): string[] {
  const out: string[] = [];
  for (const [rel, hash] of before) {
    const now = after.get(rel);
    if (now === undefined) out.push(`${rel} vanished`);
    else if (now !== hash) out.push(`${rel} changed`);
  }
  for (const rel of after.keys()) if (!before.has(rel) && !newAllowed(rel)) out.push(`${rel} appeared`);
  return out;
}

/** Entries under `parent` but outside `root` that changed, vanished or appeared. */
export function outsideChanges(
  before: Map<string, string>,
  after: Map<string, string>,
  parent: string,
  root: string,
): string[] {
  const rootRel = path.relative(parent, root);
  const outside = (m: Map<string, string>): Map<string, string> =>
    new Map([...m].filter(([rel]) => rel !== rootRel && !rel.startsWith(rootRel + path.sep)));
  return changes(outside(before), outside(after)).map((c) => `outside the storage root: ${c}`);
}

/** What an accepted error looks like: a skein error (or the TypeError agent.state documents), naming the problem. */
export interface ErrorExpectation {
  /** The message must match this (what names the problem: the option, the id, the file...). */
  names: RegExp;
  /** Accept `TypeError` with the documented "not JSON serializable" message (agent.state). */
  stateTypeError?: boolean;
}

/** Short text of an error for reports. */
export function describeError(error: unknown): string {
  const text =
    error instanceof Error ? `${error.constructor.name}: ${error.message}` : `thrown ${typeof error}: ${String(error)}`;
  return text.length > 300 ? `${text.slice(0, 300)}... (${text.length} chars)` : text;
}

/** Violations of the error rule: not a documented error, or a message that does not name the problem. */
export function errorProblems(error: unknown, expect: ErrorExpectation): string[] {
  const documentedTypeError =
    expect.stateTypeError === true && error instanceof TypeError && /is not JSON serializable/.test(error.message);
  if (!SkeinError.is(error) && !documentedTypeError) return [`not a documented skein error: ${describeError(error)}`];
  const message = (error as Error).message;
  const out: string[] = [];
  if (!expect.names.test(message))
    out.push(`the message does not name the problem (${expect.names}): ${describeError(error)}`);
  if (message.length > 2_000) out.push(`the message is ${message.length} characters long (it repeats the input whole)`);
  return out;
}

/** Runs `op`, returning its error (or `undefined`); a hang longer than `ms` is an error of its own. */
export async function attempt(op: () => unknown, ms = 10_000): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      (async () => op())(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`hung for ${ms} ms`)), ms))),
    ]);
    return undefined;
  } catch (error) {
    return error ?? new Error('threw a nullish value');
  } finally {
    clearTimeout(timer);
  }
}

/** What a rejected operation did wrong: an error that is not a named skein error, or a store it changed (`what`: the operation, for the message). */
export function rejectionProblems(
  failure: unknown,
  names: RegExp,
  before: Map<string, string>,
  after: Map<string, string>,
  what: string,
): string[] {
  return [
    ...errorProblems(failure, { names }),
    ...changes(before, after).map((c) => `a rejected ${what} changed the store: ${c}`),
  ];
}
