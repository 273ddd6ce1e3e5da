import PQueue from 'p-queue';

/** Where a run's ready nodes wait for a slot: started in the order they were added, at most `maxConcurrency` at once. */
export interface NodeQueue {
  /** Starts `task` now when a slot is free (synchronously, as p-queue does), else when one frees up. */
  add(task: () => Promise<void>): void;
  /** Drops the tasks not started yet. */
  clear(): void;
  /** Resolves once nothing runs and nothing waits. */
  onIdle(): Promise<void>;
}

/**
 * The queue of a run: p-queue when the graph bounds its concurrency; without a bound (the default)
 * every task starts at once, and a counter of the running ones is all the queue there is (p-queue
 * would keep a priority queue, a map of running tasks and events for nothing).
 */
export function nodeQueue(maxConcurrency: number): NodeQueue {
  if (maxConcurrency !== Infinity) {
    const queue = new PQueue({ concurrency: maxConcurrency });
    return { add: (task) => void queue.add(task), clear: () => queue.clear(), onIdle: () => queue.onIdle() };
  }
  return new Unbounded();
}

/** Tasks must not reject (the run's `#guard` catches everything). */
class Unbounded implements NodeQueue {
  #running = 0;
  #idle: (() => void)[] = [];
  readonly #done = (): void => {
    if (--this.#running > 0) return;
    const idle = this.#idle;
    this.#idle = [];
    for (const resolve of idle) resolve();
  };

  add(task: () => Promise<void>): void {
    this.#running++;
    task().then(this.#done, this.#done);
  }

  clear(): void {}

  onIdle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
