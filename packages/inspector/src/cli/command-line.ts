import { parseArgs } from 'node:util';
import type { CliIo } from './cli-io.js';
import { UsageError } from './cli-io.js';
import { isInternalSession } from '../view/internal.js';

const OPTIONS = {
  json: { type: 'boolean' },
  full: { type: 'boolean' },
  agent: { type: 'string' },
  output: { type: 'string', short: 'o' },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  out: { type: 'string' },
  baseline: { type: 'string' },
  threshold: { type: 'string' },
  concurrency: { type: 'string' },
  repeats: { type: 'string' },
  resume: { type: 'boolean' },
  store: { type: 'string' },
  steps: { type: 'boolean' },
  step: { type: 'string' },
  to: { type: 'string' },
  orchestrator: { type: 'string' },
  internal: { type: 'boolean' },
} as const;

/** Splits the arguments into the flags and the positionals (the command first); throws on an unknown flag. */
export function parseCommandLine(argv: readonly string[]) {
  return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
}

/** The flags the command line was given. */
type CliFlags = ReturnType<typeof parseCommandLine>['values'];

/** What a command handler is given: the positionals after the command, the flags, where to write. */
export interface CommandContext {
  rest: string[];
  values: CliFlags;
  io: CliIo;
  onServe: ((close: () => Promise<void>, url: string) => void) | undefined;
}

/** Refuses a server's own session (`skein-index-...`) unless `--internal` was given. */
export function userSession(sessionId: string, values: CliFlags): string {
  if (isInternalSession(sessionId) && values.internal !== true)
    throw new UsageError(
      `Session ${sessionId} is a server's own bookkeeping, not a run (hidden by default); add --internal to show it.`,
    );
  return sessionId;
}

/** The value, or a usage error naming what is missing. */
export function need(value: string | undefined, what: string): string {
  if (value === undefined || value === '') throw new UsageError(`Missing ${what}.`);
  return value;
}
