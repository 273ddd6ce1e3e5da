export { ensureRestateServer, RestateServer, RESTATE_SERVER_VERSION } from './restate-server.js';
export type { RestateServerInfo } from './restate-server.js';
export { startRoundRobinProxy } from './round-robin-proxy.js';
export type { RoundRobinProxy } from './round-robin-proxy.js';
