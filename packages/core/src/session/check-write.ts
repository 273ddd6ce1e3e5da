import { SessionNotFoundError } from '../errors/session-errors.js';
import { checkSessionId } from './session-codec.js';
import type { SessionWrite } from './session-repository.js';
import { checkIndex } from './stored-records.js';

/** Checks a write's ids before anything is touched (an invalid id is a `SessionNotFoundError`). */
export function checkWrite(write: SessionWrite): void {
  switch (write.op) {
    case 'createAgent':
    case 'updateAgent':
      return checkSessionId(write.agent.agent_id, 'agent id');
    case 'createMessage':
    case 'updateMessage':
      checkSessionId(write.agentId, 'agent id');
      return void checkIndex(write.message.message_id, 'message_id');
    case 'deleteMessages':
      checkSessionId(write.agentId, 'agent id');
      return void checkIndex(write.fromMessageId, 'fromMessageId');
    case 'createMultiAgent':
    case 'updateMultiAgent':
      return checkSessionId(write.multiAgent.id, 'multi-agent id');
    case 'putNodeEntry':
      checkSessionId(write.multiAgentId, 'multi-agent id');
      return checkSessionId(write.nodeId, 'node id');
    case 'appendTransitions':
      checkSessionId(write.multiAgentId, 'multi-agent id');
      for (const t of write.transitions) checkIndex(t.seq, 'transition seq');
      return;
    default:
      throw new SessionNotFoundError(`Unknown session write ${JSON.stringify((write as { op?: unknown }).op)}.`);
  }
}
