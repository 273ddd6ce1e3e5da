export { rgwServer } from './rgw.js';
export type { RgwInfo } from './rgw.js';
export { restateServer } from './restate.js';
export type { RestateInfo } from './restate.js';
