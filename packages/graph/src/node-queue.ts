/** Where a run's ready nodes wait for a slot: started in the order they were added, at most `maxConcurrency` at once. */
export interface NodeQueue {
  /** Starts `task` now when a slot is free (synchronously), else when one frees up. */
  add(task: () => Promise<void>): void;
  /** Drops the tasks not started yet. */
  clear(): void;
  /** Resolves once nothing runs and nothing waits. */
  onIdle(): Promise<void>;
}

/**
 * The queue of a run: a counter of the running tasks and, when the graph bounds its concurrency, a
 * first-in first-out list of the ones waiting for a slot (all a graph needs of a task queue; no
 * priorities, timeouts or events).
 */
export function nodeQueue(maxConcurrency: number): NodeQueue {
  return new RunQueue(maxConcurrency);
}

/** Tasks must not reject (the run's `#guard` catches everything). */
class RunQueue implements NodeQueue {
  readonly #max: number;
  #running = 0;
  #waiting: (() => Promise<void>)[] = [];
  #idle: (() => void)[] = [];
  readonly #done = (): void => {
    this.#running--;
    const next = this.#waiting.shift();
    if (next) return this.#start(next);
    if (this.#running > 0) return;
    const idle = this.#idle;
    this.#idle = [];
    for (const resolve of idle) resolve();
  };

  constructor(maxConcurrency: number) {
    this.#max = maxConcurrency;
  }

  add(task: () => Promise<void>): void {
    if (this.#running < this.#max) this.#start(task);
    else this.#waiting.push(task);
  }

  clear(): void {
    this.#waiting = [];
  }

  onIdle(): Promise<void> {
    if (this.#running === 0 && this.#waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #start(task: () => Promise<void>): void {
    this.#running++;
    task().then(this.#done, this.#done);
  }
}
