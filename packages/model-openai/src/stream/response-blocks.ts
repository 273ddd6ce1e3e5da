import type { ModelStreamEvent } from '@skein/core';

/** The block of one output item. */
export interface Block {
  index: number;
  /** The arguments received so far (function calls). */
  args: string;
  /** The reasoning summary part last written, to separate parts by a blank line. */
  summary: number;
}

/** The blocks of one Responses stream, by output index, numbered in order of appearance. */
export class Blocks {
  readonly #byOutput = new Map<number, Block>();
  readonly #open: number[] = [];
  #next = 0;
  /** Function calls started so far. */
  calls = 0;

  get(output: number): Block | undefined {
    return this.#byOutput.get(output);
  }

  /** The block of `output`, opened now if it has none yet. */
  at(output: number): Block {
    return this.#byOutput.get(output) ?? this.take(output);
  }

  take(output: number): Block {
    const block = { index: this.#next++, args: '', summary: 0 };
    this.#byOutput.set(output, block);
    this.#open.push(block.index);
    return block;
  }

  /** Stops the block of `output` (if open), or every open block. */
  *stop(output?: number): Generator<ModelStreamEvent> {
    const indexes = output === undefined ? [...this.#open] : [this.#byOutput.get(output)?.index];
    for (const index of indexes) {
      const at = index === undefined ? -1 : this.#open.indexOf(index);
      if (at < 0 || index === undefined) continue;
      this.#open.splice(at, 1);
      yield { contentBlockStop: { contentBlockIndex: index } };
    }
  }
}
