import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FileMemoryStore, FileSessionRepository } from '@skein/session-file';
import { idsWithPrefix, type InspectorStore } from './inspector-store.js';

async function dirNames(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Sessions in a directory, in the Strands / skein file layout. Reads take no lock; only `fork` and `sessions copy` write. */
export function openFileStore(dir: string): InspectorStore {
  const root = resolve(dir);
  const repository = new FileSessionRepository({ storageDir: root });
  const memory = new FileMemoryStore({ storageDir: root });
  const session = (id: string): string => join(root, `session_${id}`);
  return {
    label: dir,
    repository,
    memory,
    listSessions: async () => idsWithPrefix(await dirNames(root), 'session_'),
    listAgents: async (id) => idsWithPrefix(await dirNames(join(session(id), 'agents')), 'agent_'),
    listMultiAgents: async (id) => idsWithPrefix(await dirNames(join(session(id), 'multi_agents')), 'multi_agent_'),
    readRawMultiAgent: async (id, multiAgentId) =>
      JSON.parse(
        await readFile(join(session(id), 'multi_agents', `multi_agent_${multiAgentId}`, 'multi_agent.json'), 'utf8'),
      ) as unknown,
    // Releases the locks a write took (skein fork, sessions copy); reads take none.
    close: () => repository.close(),
  };
}
