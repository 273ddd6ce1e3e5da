/**
 * Open streams, for `server.bench.ts`: a target whose model holds every turn open (a model call of
 * 10 minutes), `n` streamed turns opened against it (1 ms apart, as clients arrive), and once every
 * stream has its first bytes: the target's heap (after a gc) and descriptors against the idle target,
 * and the latency of a probe conversation (a model that answers at once) beside them, against the
 * same probe on the idle target.
 */
import { median, pct, startTarget, statsOf, stopTarget, streamedTurn, type Target } from './server-bench-client.js';

const HOLD_MS = 600_000;

/** What `n` open streams cost one target. */
export interface OpenStreams {
  n: number;
  /** ms until every stream had its first bytes. */
  openMs: number;
  /** Heap per open stream, bytes. */
  heapPerStream: number;
  /** Descriptors per open stream (the sockets, and anything the target opens per stream). */
  fdsPerStream: number;
  heapMb: number;
  /** The probe's first-event and turn latency (ms, p50 / p99) on the idle target and with the streams open. */
  probeIdle: { first: [number, number]; turn: [number, number] };
  probeOpen: { first: [number, number]; turn: [number, number] };
}

async function probe(t: Target, label: string, turns: number): Promise<OpenStreams['probeIdle']> {
  const first: number[] = [];
  const turn: number[] = [];
  for (let i = 0; i < turns; i++) {
    const r = await streamedTurn(t, `${label}-${i}`, 'are you there?', { agentName: 'probe', modelMs: 0 });
    first.push(r.firstMs);
    turn.push(r.turnMs);
  }
  return { first: [median(first), pct(first, 0.99)], turn: [median(turn), pct(turn, 0.99)] };
}

/** Opens `n` streams on a fresh `mode` target and measures it (then stops it). */
export async function openStreams(
  name: string,
  mode: string,
  env: Record<string, string>,
  n: number,
  probeTurns = 100,
): Promise<OpenStreams> {
  const t = await startTarget(`${name}-open`, mode, { ...env, BENCH_MODEL_DELAY_MS: String(HOLD_MS) });
  try {
    await probe(t, 'warm', 20);
    const probeIdle = await probe(t, 'idle', probeTurns);
    const idle = await statsOf(t);
    let opened = 0;
    let allOpen: () => void = () => undefined;
    const everyOpen = new Promise<void>((resolve) => {
      allOpen = resolve;
    });
    const start = performance.now();
    for (let i = 0; i < n; i++) {
      if (i > 0 && i % 1000 === 0) await new Promise((r) => setTimeout(r, 1));
      const onFirst = (): void => {
        if (++opened === n) allOpen();
      };
      streamedTurn(t, `open-${i}`, 'hold this stream open', { onFirst, modelMs: HOLD_MS }).catch(() => undefined);
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 1));
    }
    await everyOpen;
    const openMs = performance.now() - start;
    const open = await statsOf(t);
    const probeOpen = await probe(t, 'open', probeTurns);
    return {
      n,
      openMs,
      heapPerStream: (open.heap - idle.heap) / n,
      fdsPerStream: (open.fds - idle.fds) / n,
      heapMb: open.heap / 2 ** 20,
      probeIdle,
      probeOpen,
    };
  } finally {
    await stopTarget(t);
  }
}
