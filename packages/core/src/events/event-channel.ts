/**
 * A push/pull queue of events: producers (a run's concurrent tools or nodes) `push`, one consumer
 * pulls with `next()` or iterates until `close`. Pushes after `close` are ignored.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #read = 0;
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
      if (this.#read < this.#items.length) return this.#take();
      if (this.#closed) return undefined;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.#read < this.#items.length) {
        yield this.#take();
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /** The oldest unread event; the array is reset once drained, so a long stream does not keep what it sent. */
  #take(): T {
    const item = this.#items[this.#read++] as T;
    if (this.#read === this.#items.length) {
      this.#items = [];
      this.#read = 0;
    }
    return item;
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
