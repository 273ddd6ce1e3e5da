/**
 * One process killed right after a run's final commit point: runs the support graph on a file store
 * (session `<sessionId>` under `<dir>`) and SIGKILLs itself as soon as the state document that says
 * `completed` is written, before the step's transitions are appended.
 * Run: node --conditions=@skein/source --import tsx final-commit-worker.ts <dir> <sessionId>
 */
import { RepositorySessionManager, type SessionMultiAgent } from '@skein/core';
import { FileSessionRepository } from '@skein/session-file';
import { supportGraph } from './fixtures.js';

class KilledAfterFinalCommit extends FileSessionRepository {
  override async updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    await super.updateMultiAgent(sessionId, multiAgent);
    if (multiAgent.id === 'support' && multiAgent.state['status'] === 'completed') process.kill(process.pid, 'SIGKILL');
  }
}

const [storageDir = '', sessionId = ''] = process.argv.slice(2);
const repository = new KilledAfterFinalCommit({ storageDir });
await supportGraph(new RepositorySessionManager({ sessionId, repository })).invoke('I was charged twice for order 42');
