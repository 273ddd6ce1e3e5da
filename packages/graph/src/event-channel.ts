/** A push/pull queue of events: the run pushes from concurrent nodes, the stream's consumer pulls. */
export class EventChannel<T> {
  readonly #items: T[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  /** Adds an event (ignored once closed). */
  push(item: T): void {
    if (this.#closed) return;
    this.#items.push(item);
    this.#notify();
  }

  /** Ends the stream after the events already pushed. */
  close(): void {
    this.#closed = true;
    this.#notify();
  }

  /** The next event, or `undefined` once closed and drained. */
  async next(): Promise<T | undefined> {
    for (;;) {
      if (this.#items.length > 0) return this.#items.shift();
      if (this.#closed) return undefined;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
