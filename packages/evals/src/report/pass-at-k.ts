/** pass@k: the chance that at least one of k runs passes, estimated from n runs with c passes (pure). */

/**
 * The unbiased estimator of Chen et al. (2021): `1 - C(n-c, k) / C(n, k)`. With `k >= n` it is 1 when
 * any run passed, else 0.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (n <= 0) return 0;
  if (k >= n) return c > 0 ? 1 : 0;
  if (n - c < k) return 1;
  let missAll = 1; // C(n-c, k) / C(n, k) as a product, without large numbers
  for (let i = 0; i < k; i++) missAll *= (n - c - i) / (n - i);
  return 1 - missAll;
}
