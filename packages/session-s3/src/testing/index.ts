// The full test tier's global setup loads these servers before any package is built and without the
// @skein/source condition: nothing here may import @skein/core (or any workspace package).
export { startRgwServer } from './rgw-server.js';
export type { RgwCredentials, RgwServer } from './rgw-server.js';
export { ensureRadosgwInstalled, RGW_PACKAGES } from './rgw-install.js';
