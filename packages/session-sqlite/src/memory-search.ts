import { type MemoryHit, type MemoryMessage, type MemorySearchOptions, rankLexical } from '@skein/core';
import type BetterSqlite3 from 'better-sqlite3';
import { CANDIDATES, M_COLUMNS, type Row, toMessage } from './memory-rows.js';

/**
 * Lexical search in the FTS5 index: each of `matches` (the resource's owner token AND a term) gives
 * its newest matches outside the excluded thread, and core's BM25 ranks their union.
 */
export function newestRanked(
  prepare: (sql: string) => BetterSqlite3.Statement,
  resource: string,
  matches: readonly string[],
  terms: readonly string[],
  options: MemorySearchOptions,
): MemoryHit[] {
  // Per term, its newest matches, unranked by the index: FTS5's bm25() counts every row of each
  // term in the whole table (it grows with history); BM25 over the candidates ranks them instead.
  // CROSS JOIN keeps the candidates the outer loop (else SQLite scans every row of the resource).
  const newest = prepare(
    `SELECT m.id AS id, ${M_COLUMNS} FROM (
         SELECT rowid AS id FROM skein_memory_fts WHERE skein_memory_fts MATCH ? ORDER BY rowid DESC LIMIT ${CANDIDATES}) c
       CROSS JOIN skein_memory_messages m ON m.id = c.id
       WHERE m.resource = ? AND m.thread <> ?`,
  );
  const byId = new Map<number, Row>();
  for (const match of matches)
    for (const row of newest.all(match, resource, options.excludeThread ?? '') as (Row & { id: number })[])
      byId.set(row.id, row);
  // Newest first (ranking keeps that order among equal scores); a vector is read only for a hit.
  const rowOf = new Map<MemoryMessage, Row>();
  for (const id of [...byId.keys()].sort((a, b) => b - a)) {
    const row = byId.get(id) as Row;
    rowOf.set(toMessage(row.embedding ? { ...row, embedding: null } : row), row);
  }
  return rankLexical([...rowOf.keys()], terms, options).map((hit) => {
    const row = rowOf.get(hit.message) as Row;
    return row.embedding ? { message: toMessage(row), score: hit.score } : hit;
  });
}
