// The full test tier's global setup loads these servers before any package is built and without the
// @skein/source condition: nothing here may import @skein/core (or any workspace package).
export { startPostgresServer } from './postgres-server.js';
export type { PostgresServer, PostgresServerOptions } from './postgres-server.js';
export { ensurePostgresInstalled, POSTGRES_PACKAGE } from './postgres-install.js';
export { startCuttingProxy } from './cutting-proxy.js';
export type { CuttingProxy } from './cutting-proxy.js';
