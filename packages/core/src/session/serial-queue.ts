/**
 * Runs async tasks one after another, in call order. A failed task rejects its own promise and does
 * not stop the tasks queued after it. Used so that message ids, transition numbers and state writes
 * are assigned and stored in the order they were asked for, even when callers do not await.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Queues `task` after every task queued before it; resolves or rejects with its outcome. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
