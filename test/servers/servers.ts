/**
 * The real servers of the full test tier (`*.e2e.test.ts`), each started once per run by
 * `global-setup.ts` and handed to the test files as plain connection info through vitest's
 * `provide`/`inject` (see `provided.ts`). A test file gets a usable server object from the helper
 * beside each server (`rgwServer()`, `restateServer()`), which starts a server of its own when the
 * file runs outside the full project.
 *
 * Adding a server (e.g. PostgreSQL, `startPostgresServer()` from `@skein/session-postgres/testing`):
 * 1. its connection info: an interface of JSON values (a URL, credentials), in a `<name>.ts` beside this file;
 * 2. an entry in `SERVERS` below: how to start it once for the run, its info, how to stop it;
 * 3. a key in `ProvidedContext` (`provided.ts`), named like the entry;
 * 4. in `<name>.ts`, a helper that rebuilds a server object from `inject('<name>')`, or starts one when
 *    nothing was provided, and whose `stop()` only stops what it started.
 * Tests stay isolated on a shared server: each file (or test) makes its own bucket, database or
 * service names; nothing is reset between files.
 */
// Relative imports: vitest loads a global setup outside the test environment, without the
// `@skein/source` export condition, so a package name would point at its (unbuilt) dist/.
import { RestateServer } from '../../packages/restate/src/testing/index.js';
import { startRgwServer } from '../../packages/session-s3/src/testing/index.js';
import { startPostgresServer } from '../../packages/session-postgres/src/testing/index.js';
import type { PostgresInfo } from './postgres.js';
import type { RgwInfo } from './rgw.js';
import type { RestateInfo } from './restate.js';

/** A server started for the whole run: what the tests get, and how to stop it after the last file. */
export interface RunServer<Info> {
  info: Info;
  stop(): Promise<void>;
}

/** Every server the full tier shares, by the key tests `inject`. */
export interface ServerInfos {
  rgw: RgwInfo;
  restate: RestateInfo;
  postgres: PostgresInfo;
}

/** How each server starts for the run. They start in parallel, before the first test file. */
export const SERVERS: { [K in keyof ServerInfos]: () => Promise<RunServer<ServerInfos[K]>> } = {
  rgw: async () => {
    const server = await startRgwServer();
    const { endpoint, region, credentials, otherCredentials } = server;
    return { info: { endpoint, region, credentials, otherCredentials }, stop: () => server.stop() };
  },
  restate: async () => {
    const server = await RestateServer.start();
    return { info: server.info, stop: () => server.stop() };
  },
  postgres: async () => {
    const server = await startPostgresServer();
    return { info: { host: server.host, port: server.port, user: server.user }, stop: () => server.stop() };
  },
};
