/**
 * A graceful stop: no new turns (503 with retry-after), every attached stream is told (`serverStopping`),
 * running turns may finish within `graceMs`, then the rest are stopped at their next commit point (their
 * run is aborted; orchestrators store what they finished, agents end with a consistent history) and
 * stored as `stopped`. The next start resumes them when a client re-joins (GET .../stream).
 */
import type { ServerContext } from './server-context.js';

/** Options of a stop. */
export interface StopOptions {
  /** How long running turns may go on before they are stopped, ms. Default `limits.stopGraceMs`. */
  graceMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

export async function stopServer(ctx: ServerContext, options: StopOptions = {}): Promise<void> {
  ctx.stopping = true;
  const graceMs = options.graceMs ?? ctx.limits.stopGraceMs;
  const running = ctx.registry.all();
  const detail = `The server is stopping. Turns still running after ${graceMs} ms are stopped at their next commit point and resume when you re-join (GET .../stream with your Last-Event-ID).`;
  for (const turn of running) if (!turn.log.ended) turn.log.append({ type: 'serverStopping', detail });
  const all = Promise.all(running.map((t) => t.done));
  await Promise.race([all, sleep(graceMs)]);
  for (const turn of ctx.registry.all()) turn.abort('stop');
  await Promise.all(ctx.registry.all().map((t) => t.done));
  await all;
  ctx.registry.clear();
}
