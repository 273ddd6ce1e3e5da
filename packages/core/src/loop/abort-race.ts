/**
 * Races tool calls against their invocation's abort signal with one `abort` listener per signal,
 * rather than one added and removed per tool call: on a trivial tool, adding and removing an
 * AbortSignal listener cost about as much as running the tool.
 */

type Wake = () => void;

/** The races waiting on each signal; the signal's one listener wakes them all. */
const waiting = new WeakMap<AbortSignal, Set<Wake>>();

function wakersOf(signal: AbortSignal): Set<Wake> {
  let wakers = waiting.get(signal);
  if (wakers === undefined) {
    const made = new Set<Wake>();
    waiting.set(signal, made);
    signal.addEventListener('abort', () => wakeAll(made), { once: true });
    wakers = made;
  }
  return wakers;
}

function wakeAll(wakers: Set<Wake>): void {
  for (const wake of wakers) wake();
  wakers.clear();
}

/**
 * Starts `work` and resolves with its outcome, or with `aborted()` as soon as `signal` aborts (an
 * unresponsive tool cannot hold the loop). The abort side is armed before `work` starts, as a tool
 * may abort the signal synchronously. One promise settled by whichever comes first (no
 * `Promise.race`, which would cost an array, a promise per side and a turn of the queue).
 */
export function raceAbort<T>(signal: AbortSignal, work: () => Promise<T>, aborted: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return resolve(aborted());
    const wakers = wakersOf(signal);
    const wake = (): void => resolve(aborted());
    wakers.add(wake);
    let started: Promise<T>;
    try {
      started = work();
    } catch (error) {
      wakers.delete(wake);
      return reject(error);
    }
    started.then(
      (value) => {
        wakers.delete(wake);
        resolve(value);
      },
      (error: unknown) => {
        wakers.delete(wake);
        reject(error);
      },
    );
  });
}
