export { ensureRestateServer, RestateServer, RESTATE_SERVER_VERSION } from './restate-server.js';
