/** Other trees' @skein/session-sqlite for before/after pairs in one run (BENCH_SQLITE_VARIANTS, see bench/sqlite-variant.sh). */
import type { SessionRepository } from '@skein/core';
import { SqliteSessionRepository } from '@skein/session-sqlite';

/** A SqliteSessionRepository constructor, this tree's or another's. */
export type SqliteStore = new (options: {
  path: string;
  synchronous?: 'FULL' | 'NORMAL';
}) => SessionRepository & { close(): Promise<void> };

/** `this tree` first, then each of BENCH_SQLITE_VARIANTS=`name=/path/to/src/index.ts;...`. */
export async function sqliteStores(): Promise<[string, SqliteStore][]> {
  const stores: [string, SqliteStore][] = [['this tree', SqliteSessionRepository]];
  for (const entry of (process.env['BENCH_SQLITE_VARIANTS'] ?? '').split(';').filter(Boolean)) {
    const [name, file] = entry.split('=') as [string, string];
    const module = (await import(file)) as { SqliteSessionRepository: SqliteStore };
    stores.push([name, module.SqliteSessionRepository]);
  }
  return stores;
}
