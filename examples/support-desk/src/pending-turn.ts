/**
 * The desk's own note of the message it is working on, written before a turn and removed after the
 * reply is shown: after a crash, `/resume` (or `--resume`) knows which message to finish, and which
 * approval it waited for. The orchestrator's session holds the real progress; this only names them.
 * Two desk processes on one conversation share the note: a turn refused before it wrote anything
 * (another process answered meanwhile) puts back the note it replaced (`abandon`).
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
  /** What `begin` wrote, and the note it replaced (`null`: none). */
  #mine: { text: string; replaced: string | null } | undefined;

  constructor(dir: string, key: string) {
    this.#file = join(dir, `pending-${key}.json`);
  }

  async #text(): Promise<string | null> {
    return readFile(this.#file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
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
    const replaced = this.#mine ? this.#mine.replaced : await this.#text();
    const text = JSON.stringify(turn);
    await this.#write(text);
    this.#mine = { text, replaced };
  }

  async end(): Promise<void> {
    this.#mine = undefined;
    await rm(this.#file, { force: true });
  }

  /** The turn did not happen (nothing of it was stored): puts back the note `begin` replaced, unless the note changed since. */
  async abandon(): Promise<void> {
    const mine = this.#mine;
    this.#mine = undefined;
    if (!mine || (await this.#text()) !== mine.text) return;
    if (mine.replaced === null) await rm(this.#file, { force: true });
    else await this.#write(mine.replaced);
  }

  async #write(text: string): Promise<void> {
    const temp = `${this.#file}.${process.pid}.tmp`;
    await writeFile(temp, text);
    await rename(temp, this.#file);
  }
}
