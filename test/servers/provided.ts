/**
 * What the full tier's global setup (`global-setup.ts`) provides to the tests: one key per server of
 * `SERVERS`, absent when a file runs outside the full project (the helpers then start their own).
 */
import type { ServerInfos } from './servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    rgw?: ServerInfos['rgw'];
    restate?: ServerInfos['restate'];
    postgres?: ServerInfos['postgres'];
  }
}
