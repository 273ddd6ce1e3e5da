import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionRepository } from '@skein/session-file';
import { sessionContract, trackedStorage } from './session-contract.js';

sessionContract({
  name: 'file',
  sharedWriters: true,
  async fresh() {
    const storageDir = await mkdtemp(join(tmpdir(), 'skein-contract-file-'));
    return trackedStorage(
      () => new FileSessionRepository({ storageDir }),
      () => rm(storageDir, { recursive: true, force: true }),
      (sessionId, agentId, messageId) =>
        writeFile(
          join(
            storageDir,
            `session_${sessionId}`,
            'agents',
            `agent_${agentId}`,
            'messages',
            `message_${messageId}.json`,
          ),
          '{"message": {"role": "user", "content": [',
        ),
      (sessionId, multiAgentId, nodeId) =>
        rm(
          join(
            storageDir,
            `session_${sessionId}`,
            'multi_agents',
            `multi_agent_${multiAgentId}`,
            'nodes',
            `node_${nodeId}.json`,
          ),
        ),
    );
  },
});
