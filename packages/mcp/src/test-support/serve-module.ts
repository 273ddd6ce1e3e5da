/**
 * The module `skein mcp serve` loads in the stdio tests: the test targets on a file store in
 * `SKEIN_MCP_TEST_DIR` (so a second process continues what the first stored).
 */
import { FileSessionManager } from '@skein/session-file';
import { serveTargets } from './serve-targets.js';

const dir = process.env['SKEIN_MCP_TEST_DIR'];
if (!dir) throw new Error('Set SKEIN_MCP_TEST_DIR to the directory of the test store.');

export default serveTargets((sessionId) => new FileSessionManager({ sessionId, storageDir: dir }));
