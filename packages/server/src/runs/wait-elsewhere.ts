/**
 * Waiting for a turn that runs in another server process (the store's lock or lease says another
 * writer holds the conversation): through the store when it can tell when the holder lets go
 * (`waitForRelease`: PostgreSQL `NOTIFY`), else by looking again after a short, growing pause. Either
 * way the caller tries again at least every `LOOK_AGAIN_MS`, so a holder that died is found then.
 */
import { ProblemError } from '../http/problem.js';
import type { ServerContext } from '../server-context.js';
import { closeQuietly, repositoryOf } from '../store/repository-of.js';

/** The longest pause between two tries of a waiting request. */
const LOOK_AGAIN_MS = 1_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** True for the 409 that says another server process holds the conversation. */
export function busyElsewhere(error: unknown): boolean {
  return error instanceof ProblemError && error.problem.type.endsWith('#conversation-busy');
}

/** Waits until the holder of session `sessionId` in another process may have let go, at most `ms` (`attempt` 0, 1, 2... of this request). */
export async function waitElsewhere(ctx: ServerContext, sessionId: string, ms: number, attempt: number): Promise<void> {
  if (ms <= 0) return;
  const manager = ctx.options.sessions(sessionId);
  try {
    const repo = repositoryOf(manager);
    if (repo.waitForRelease) await repo.waitForRelease(sessionId, Math.min(ms, LOOK_AGAIN_MS));
    else await sleep(Math.min(ms, LOOK_AGAIN_MS, 50 * 2 ** attempt));
  } finally {
    await closeQuietly(manager);
  }
}
