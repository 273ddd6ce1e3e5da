/** The restate-server of the full tier, shared by every file of the run. */
import { RestateServer, type RestateServerInfo } from '@skein/restate/testing';
import { inject } from 'vitest';
import './provided.js';

/** What a test needs to reach the shared restate-server (JSON, provided by the global setup). */
export type RestateInfo = RestateServerInfo;

/**
 * The run's restate-server (started once by the full tier's global setup), or one of this file's own
 * when the file runs outside the full project. Services are global to a server: register yours under
 * names no other file uses (a prefix per file). `stop()` stops only a server this call started.
 */
export async function restateServer(): Promise<RestateServer> {
  const info = inject('restate');
  return info ? RestateServer.at(info) : RestateServer.start();
}
