export { startPostgresServer } from './postgres-server.js';
export type { PostgresServer, PostgresServerOptions } from './postgres-server.js';
export { ensurePostgresInstalled, POSTGRES_PACKAGE } from './postgres-install.js';
export { startCuttingProxy } from './cutting-proxy.js';
export type { CuttingProxy } from './cutting-proxy.js';
