export { startRgwServer } from './rgw-server.js';
export type { RgwCredentials, RgwServer } from './rgw-server.js';
export { ensureRadosgwInstalled, RGW_PACKAGES } from './rgw-install.js';
