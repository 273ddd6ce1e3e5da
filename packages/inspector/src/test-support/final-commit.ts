import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Leaves a finished run of a file store as a writer killed right after its final commit point leaves
 * it: the state document as committed, without the transition files its last step appends after it
 * (the `lastTransitions` its envelope counts in `transitionCount`). Returns the seqs it removed.
 */
export async function cutAfterFinalCommit(
  storageDir: string,
  sessionId: string,
  orchestratorId: string,
): Promise<number[]> {
  const runDir = join(storageDir, `session_${sessionId}`, 'multi_agents', `multi_agent_${orchestratorId}`);
  const doc = JSON.parse(await readFile(join(runDir, 'multi_agent.json'), 'utf8')) as {
    state: { transitionCount: number; lastTransitions: unknown[] };
  };
  const { transitionCount, lastTransitions } = doc.state;
  const cut = lastTransitions.map((_, i) => transitionCount - lastTransitions.length + i);
  await Promise.all(cut.map((seq) => rm(join(runDir, 'transitions', `transition_${seq}.json`))));
  return cut;
}
