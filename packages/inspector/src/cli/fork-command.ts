import { forkSession, isSideRecord } from '@skein/core';
import type { InspectorStore } from '../store/inspector-store.js';
import { isInternalRecord } from '../view/internal.js';
import { UsageError } from './cli-io.js';

/** What `skein fork` was given. */
export interface ForkArgs {
  sessionId: string;
  step: string | undefined;
  to: string | undefined;
  orchestrator: string | undefined;
}

/** The orchestrator to fork: the one named, or the session's only one. */
async function orchestratorOf(store: InspectorStore, args: ForkArgs): Promise<string> {
  const ids = (await store.listMultiAgents(args.sessionId)).filter((id) => !isSideRecord(id) && !isInternalRecord(id));
  if (args.orchestrator !== undefined) {
    if (!ids.includes(args.orchestrator))
      throw new UsageError(
        `Session ${args.sessionId} has no orchestrator ${args.orchestrator} (it has: ${ids.join(', ') || 'none'}).`,
      );
    return args.orchestrator;
  }
  if (ids.length === 1) return ids[0] as string;
  throw new UsageError(
    ids.length === 0
      ? `Session ${args.sessionId} holds no Graph or Swarm run to fork.`
      : `Session ${args.sessionId} holds several orchestrators (${ids.join(', ')}); name one with --orchestrator <id>.`,
  );
}

/**
 * `skein fork <store> <session> --step N --to NEW`: a new session in the same store whose run
 * continues from step N (no edits: edit in code with `graph.fork` / `swarm.fork`); prints what to run
 * next. The session it forks is only read.
 */
export async function forkCommand(
  store: InspectorStore,
  args: ForkArgs,
  write: (text: string) => void,
  skein = 'skein',
): Promise<number> {
  const step = Number(args.step);
  if (args.step === undefined || !Number.isInteger(step) || step < 0)
    throw new UsageError(`--step takes a step number (see ${skein} show <store> ${args.sessionId} --steps).`);
  if (args.to === undefined || args.to === '') throw new UsageError('--to takes the id of the new session.');
  const orchestratorId = await orchestratorOf(store, args);
  const fork = await forkSession(store.repository, { sessionId: args.sessionId, orchestratorId, step, to: args.to });
  const index = await store.repository.readMultiAgent(args.to, `${orchestratorId}@history`);
  const kind = index?.state['type'] === 'swarm' ? 'swarm' : 'graph';
  write(
    [
      `Forked ${kind} ${orchestratorId} of session ${args.sessionId} at step ${step} into session ${fork.sessionId} (${store.label}); ${args.sessionId} was only read.`,
      'Next:',
      `  1. Build the same ${kind} (id ${JSON.stringify(orchestratorId)}) with a session manager for session ${JSON.stringify(fork.sessionId)} on this store.`,
      `  2. Call ${kind}.invoke(...): it continues from step ${step}. If it waits for answers, read ${kind}.pendingInterrupts() and answer them instead.`,
      `  3. To replay the original's model outputs instead of calling the models, fork in code: ${kind}.fork({ step: ${step}, to }) returns a recording (recording.model(id), recording.guard(nodes)).`,
      `  See the fork: ${skein} show ${store.label} ${fork.sessionId} --steps`,
    ].join('\n') + '\n',
  );
  return 0;
}
