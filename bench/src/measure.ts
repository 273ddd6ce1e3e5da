/** Small timing helpers for benchmarks: best-of-rounds mean, so noise from the other core is trimmed. */

/** Times `fn` (awaited) `iterations` times per round, `rounds` rounds (`BENCH_ROUNDS`, default 5); returns the best mean in µs per call. */
export async function usPerOp(
  fn: () => unknown,
  iterations: number,
  rounds = Number(process.env['BENCH_ROUNDS'] ?? 5),
): Promise<number> {
  for (let i = 0; i < Math.min(iterations, 200); i++) await fn();
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await fn();
    const us = Number(process.hrtime.bigint() - start) / 1_000 / iterations;
    best = Math.min(best, us);
  }
  return best;
}

/** Times one call of `fn` (awaited) in ms, best of `rounds` (with `setup` before each, untimed). */
export async function bestMs(fn: () => unknown, rounds = 5, setup?: () => unknown): Promise<number> {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    if (setup) await setup();
    const start = process.hrtime.bigint();
    await fn();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return best;
}

/** Prints a table row-by-row with aligned columns. */
export function table(rows: (string | number)[][]): void {
  const cells = rows.map((r) =>
    r.map((c) => (typeof c === 'number' ? (Number.isInteger(c) ? String(c) : c.toFixed(2)) : c)),
  );
  const widths = cells[0]?.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length))) ?? [];
  for (const r of cells) console.log(r.map((c, i) => c.padStart(widths[i] ?? 0)).join('  '));
}
