/**
 * The desk's own note of the message it is working on, written before a turn and removed after the
 * reply is shown: after a crash, `/resume` (or `--resume`) knows which message to finish, and which
 * approval it waited for. The orchestrator's session holds the real progress; this only names them.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Interrupt } from '@skein/core';

export interface PendingTurn {
  message: string;
  /** Position of the message in a `--script` file, when it came from one. */
  index: number;
  /** What the turn waits for (a refund approval): answered on `--resume`, from the session. */
  interrupts?: readonly Interrupt[];
}

export class PendingTurns {
  readonly #file: string;

  constructor(dir: string, key: string) {
    this.#file = join(dir, `pending-${key}.json`);
  }

  async read(): Promise<PendingTurn | undefined> {
    try {
      return JSON.parse(await readFile(this.#file, 'utf8')) as PendingTurn;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async begin(turn: PendingTurn): Promise<void> {
    await writeFile(`${this.#file}.tmp`, JSON.stringify(turn));
    await rename(`${this.#file}.tmp`, this.#file);
  }

  async end(): Promise<void> {
    await rm(this.#file, { force: true });
  }
}
