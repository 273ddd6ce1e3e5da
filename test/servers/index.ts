export { rgwServer } from './rgw.js';
export { restateServer } from './restate.js';
export { postgresServer } from './postgres.js';
