/**
 * Races tool calls against their invocation's abort signal with one `abort` listener per signal,
 * rather than one added and removed per tool call: on a trivial tool, adding and removing an
 * AbortSignal listener cost about as much as running the tool.
 */

/** What an aborted race settles with. */
const ABORTED: unique symbol = Symbol('skein.aborted');
type Wake = (value: typeof ABORTED) => void;

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
  for (const wake of wakers) wake(ABORTED);
  wakers.clear();
}

/**
 * Starts `work` and resolves with its outcome, or with `aborted()` as soon as `signal` aborts (an
 * unresponsive tool cannot hold the loop). The abort side is armed before `work` starts, as a tool
 * may abort the signal synchronously.
 */
export async function raceAbort<T>(signal: AbortSignal, work: () => Promise<T>, aborted: () => T): Promise<T> {
  let wake: Wake | undefined;
  const abort = new Promise<typeof ABORTED>((resolve) => {
    wake = resolve;
  });
  const armed = wake as Wake;
  const wakers = wakersOf(signal);
  if (signal.aborted) armed(ABORTED);
  else wakers.add(armed);
  try {
    const outcome = await Promise.race([work(), abort]);
    return outcome === ABORTED ? aborted() : outcome;
  } finally {
    wakers.delete(armed);
  }
}
