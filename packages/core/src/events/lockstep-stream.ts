/**
 * A run written as an async function that hands its events to `emit`, read as an async generator.
 * Each event waits for the reader to ask for the next one, so the run moves in lockstep with its
 * reader exactly as a generator would (nothing runs before the first `next()`, nothing runs ahead
 * of the reader, `return()` unwinds the run through its `finally` blocks), but an event crosses one
 * hand-over instead of one generator per layer of the run.
 */

/** What a waiting `emit` throws when the reader stopped reading: the run unwinds as a generator's `return()` would. */
class StreamClosed extends Error {
  constructor() {
    super('The stream was closed by its reader.');
    this.name = 'StreamClosed';
  }
}

/** True for the `StreamClosed` a run's `emit` threw (catch blocks of a run let it through). */
export function isStreamClosed(error: unknown): error is StreamClosed {
  return error instanceof StreamClosed;
}

/** Hands one event to the reader; the promise settles when the reader asks for the next (rejects with `StreamClosed` when it stopped). */
export type Emit<T> = (event: T) => Promise<void>;

interface Waiter<V> {
  resolve(value: V): void;
  reject(error: unknown): void;
}

/** How a reader's request resumes the run: with nothing (`next`) or with an error (`throw`). */
type Resume = { error: unknown } | undefined;

/**
 * The generator of a run: `start(emit)` is called on the first `next()`; its result is the
 * generator's return value, its error the generator's error.
 */
export class LockstepStream<T, R> implements AsyncGenerator<T, R, undefined> {
  readonly #start: (emit: Emit<T>) => Promise<R>;
  #phase: 'idle' | 'running' | 'done' = 'idle';
  /** The reader's pending request, answered by the next event or the run's end. */
  #reader: Waiter<IteratorResult<T, R>> | undefined;
  /** The run's `emit`, waiting for the reader's next request. */
  #run: Waiter<void> | undefined;
  /** The run's end, once started. */
  #ended: Promise<R> | undefined;
  /** Requests made while another was pending (a reader that does not await each call), served in order. */
  readonly #queue: (() => void)[] = [];
  readonly #emit: Emit<T> = (event) => this.#deliver(event);

  constructor(start: (emit: Emit<T>) => Promise<R>) {
    this.#start = start;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, R>> {
    return this.#request(undefined);
  }

  throw(error: unknown): Promise<IteratorResult<T, R>> {
    if (this.#reader) return this.#later(() => this.throw(error));
    if (this.#phase === 'idle') this.#phase = 'done';
    if (this.#phase === 'done') return Promise.reject(error);
    return this.#request({ error });
  }

  /** Stops reading: a waiting run unwinds (its `finally` blocks run) before this resolves. */
  async return(value?: R | PromiseLike<R>): Promise<IteratorResult<T, R>> {
    if (this.#reader) return this.#later(() => this.return(value));
    if (this.#phase === 'idle') this.#phase = 'done';
    const run = this.#run;
    if (this.#phase === 'running' && run) {
      this.#phase = 'done';
      this.#run = undefined;
      run.reject(new StreamClosed());
      try {
        await this.#ended;
      } catch (error) {
        if (!isStreamClosed(error)) throw error;
      }
    }
    return { value: (await value) as R, done: true };
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }

  #request(resume: Resume): Promise<IteratorResult<T, R>> {
    if (this.#reader) return this.#later(() => this.#request(resume));
    if (this.#phase === 'done') return Promise.resolve({ value: undefined as R, done: true });
    const asked = new Promise<IteratorResult<T, R>>((resolve, reject) => (this.#reader = { resolve, reject }));
    if (this.#phase === 'idle') this.#begin();
    else this.#resume(resume);
    return asked;
  }

  /** A request made while another is pending: made when that one is answered. */
  #later(request: () => Promise<IteratorResult<T, R>>): Promise<IteratorResult<T, R>> {
    return new Promise((resolve, reject) => this.#queue.push(() => void request().then(resolve, reject)));
  }

  #begin(): void {
    this.#phase = 'running';
    const ended = this.#start(this.#emit);
    this.#ended = ended;
    ended.then(
      (value) => this.#end({ value, done: true }, undefined),
      (error: unknown) => this.#end(undefined, error),
    );
  }

  #resume(resume: Resume): void {
    const run = this.#run;
    this.#run = undefined;
    if (!run) return;
    if (resume) run.reject(resume.error);
    else run.resolve();
  }

  #deliver(event: T): Promise<void> {
    if (this.#phase === 'done') return Promise.reject(new StreamClosed());
    const waiting = new Promise<void>((resolve, reject) => (this.#run = { resolve, reject }));
    this.#answer({ value: event, done: false }, undefined);
    return waiting;
  }

  #end(result: IteratorResult<T, R> | undefined, error: unknown): void {
    if (this.#phase === 'done' && !this.#reader) return; // ended by return(), which reports
    this.#phase = 'done';
    this.#answer(result, error);
  }

  /** Answers the pending request with an event, the run's end or its error; then makes a queued one. */
  #answer(result: IteratorResult<T, R> | undefined, error: unknown): void {
    const reader = this.#reader;
    this.#reader = undefined;
    if (reader) {
      if (result) reader.resolve(result);
      else reader.reject(error);
    }
    this.#queue.shift()?.();
  }
}
