export { rgwServer } from './rgw.js';
export { restateServer } from './restate.js';
