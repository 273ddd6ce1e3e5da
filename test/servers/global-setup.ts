/**
 * The `full` project's global setup (vitest.config.ts): starts every server of `SERVERS` once for the
 * run, in parallel, provides each one's connection info under its key, and stops them after the last
 * test file. Vitest runs it only when the run has full-tier files.
 */
import type { TestProject } from 'vitest/node';
import './provided.js';
import { SERVERS, type RunServer, type ServerInfos } from './servers.js';

type Key = keyof ServerInfos;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const keys = Object.keys(SERVERS) as Key[];
  const started = await Promise.allSettled(keys.map((key) => SERVERS[key]()));
  const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value as RunServer<unknown>] : []));
  const stopAll = async (): Promise<void> => {
    await Promise.allSettled(running.map((server) => server.stop()));
  };
  const failed = started.flatMap((s, i) => (s.status === 'rejected' ? [`${keys[i]}: ${String(s.reason)}`] : []));
  if (failed.length > 0) {
    await stopAll();
    throw new Error(`The full tier's servers did not start:\n${failed.join('\n')}`);
  }
  keys.forEach((key, i) => {
    const server = started[i];
    if (server?.status === 'fulfilled') project.provide(key, server.value.info as ServerInfos[typeof key]);
  });
  return stopAll;
}
