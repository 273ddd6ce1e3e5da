/**
 * What the two SQL stores write differently, named in one place: how a statement refers to a
 * parameter and a table, how a bigint comes back, what "no limit" is, and whether the tables'
 * foreign keys refuse a record without its parent (and delete its children with it).
 */
export interface SqlDialect {
  /** The `n`-th parameter (1-based); `type` where PostgreSQL cannot infer it (an `INSERT ... SELECT`). */
  param(n: number, type?: 'text' | 'bigint'): string;
  /** A table as statements name it (PostgreSQL qualifies it with the store's schema). */
  table(name: string): string;
  /** A bigint column read back as a JavaScript number (PostgreSQL returns bigint as text). */
  number(column: string): string;
  /** What `LIMIT` takes for no limit. */
  readonly noLimit: number | null;
  /**
   * True where foreign keys refuse a record whose parent is missing and remove a record's children
   * with it (PostgreSQL); else a statement checks the parent first and one deletes each child table
   * (SQLite, whose tables have none).
   */
  readonly foreignKeys: boolean;
}

/** SQLite (better-sqlite3): numbered `?n` parameters, no foreign keys, `LIMIT -1`. */
export const SQLITE_DIALECT: SqlDialect = {
  param: (n) => `?${n}`,
  table: (name) => name,
  number: (column) => column,
  noLimit: -1,
  foreignKeys: false,
};

/** PostgreSQL (node-postgres) with the tables in `schema` (quoted): `$n` parameters, foreign keys, `LIMIT NULL`. */
export function postgresDialect(schema: string): SqlDialect {
  return {
    param: (n, type) => (type ? `$${n}::${type}` : `$${n}`),
    table: (name) => `${schema}.${name}`,
    number: (column) => `${column}::float8 AS ${column}`,
    noLimit: null,
    foreignKeys: true,
  };
}
