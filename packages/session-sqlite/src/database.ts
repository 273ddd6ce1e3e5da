import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { checkSchema } from './schema.js';
import { toSessionError } from './errors.js';

/** How the database is opened. */
export interface OpenOptions {
  path: string;
  /** `sqlite:<absolute path>`, as errors name the store. */
  store: string;
  readonly: boolean;
  synchronous: 'FULL' | 'NORMAL';
  busyTimeoutMs: number;
}

type DatabaseConstructor = new (path: string, options: BetterSqlite3.Options) => BetterSqlite3.Database;

/** better-sqlite3, loaded at the first open (not at import). */
function loadDriver(): DatabaseConstructor {
  return createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;
}

/**
 * Opens the database: checks it is skein's (or empty) before anything is written, creates or
 * migrates the schema, then sets WAL mode and the durability level.
 */
export function openDatabase(options: OpenOptions): BetterSqlite3.Database {
  let db: BetterSqlite3.Database | undefined;
  try {
    const Database = loadDriver();
    db = new Database(options.path, {
      readonly: options.readonly,
      fileMustExist: options.readonly,
      timeout: options.busyTimeoutMs,
    });
    checkSchema(db, options.store, options.readonly);
    if (!options.readonly) db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous}`);
    return db;
  } catch (error) {
    db?.close();
    throw toSessionError(error, options.store, 'opening it', options.busyTimeoutMs);
  }
}
