import type { CliIo } from '../cli/cli-io.js';

/** A CLI io that keeps what was written. */
export function captureIo(options: { tty?: boolean; cwd?: string } = {}): CliIo & { out(): string; err(): string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s), isTTY: options.tty ?? false },
    stderr: { write: (s: string) => (err += s) },
    env: {},
    cwd: options.cwd ?? process.cwd(),
    out: () => out,
    err: () => err,
  };
}
