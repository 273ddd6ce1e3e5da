import {
  committedTransitions,
  encodeBytes,
  readCommittedTransitions,
  type Session,
  type SessionRepository,
  type SessionWrite,
} from '@skein/core';
import type { InspectorStore } from '../store/inspector-store.js';

/** JSON with object keys sorted (so two stores' records compare equal whatever order they keep keys in). */
function canonical(value: unknown): string {
  return JSON.stringify(encodeBytes(value), (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** Everything one session holds, read through a store (the comparison `copy` makes after writing). */
async function snapshot(store: InspectorStore, sessionId: string): Promise<string> {
  const r = store.repository;
  const agents = await Promise.all(
    (await store.listAgents(sessionId)).map(async (id) => ({
      agent: await r.readAgent(sessionId, id),
      messages: await r.listMessages(sessionId, id),
    })),
  );
  const orchestrators = await Promise.all(
    (await store.listMultiAgents(sessionId)).map(async (id) => ({
      doc: await r.readMultiAgent(sessionId, id),
      nodes: await r.readNodeEntries(sessionId, id),
      transitions: await readCommittedTransitions(r, sessionId, id),
    })),
  );
  return canonical({ session: await r.readSession(sessionId), agents, orchestrators });
}

/** Writes `writes` to one session in one batch when the store can, else one by one. */
async function write(to: SessionRepository, sessionId: string, writes: SessionWrite[]): Promise<void> {
  if (to.writeBatch) return to.writeBatch(sessionId, writes);
  for (const w of writes) {
    if (w.op === 'createAgent') await to.createAgent(sessionId, w.agent);
    else if (w.op === 'createMessage') await to.createMessage(sessionId, w.agentId, w.message);
    else if (w.op === 'createMultiAgent') await to.createMultiAgent(sessionId, w.multiAgent);
    else if (w.op === 'putNodeEntry') await to.putNodeEntry(sessionId, w.multiAgentId, w.nodeId, w.entry);
    else if (w.op === 'appendTransitions') await to.appendTransitions(sessionId, w.multiAgentId, w.transitions);
  }
}

/** Copies one session (refused when `to` has it already: nothing is overwritten). */
async function copySession(from: InspectorStore, to: InspectorStore, sessionId: string): Promise<void> {
  const r = from.repository;
  const session = await r.readSession(sessionId);
  if (!session) return;
  if (await to.repository.readSession(sessionId))
    throw new Error(
      `${to.label} already has session ${sessionId}; nothing was copied over it. Delete it there first or copy into an empty store.`,
    );
  await to.repository.beginView?.(sessionId);
  try {
    await writeSession(from, to, sessionId, session);
  } finally {
    // The copy is a session like any other once made (or cut): no claim of this writer stays on it.
    await to.repository.release?.(sessionId);
  }
}

/** Writes one session's records into `to` (agents with their messages, orchestrators with their entries and transitions). */
async function writeSession(
  from: InspectorStore,
  to: InspectorStore,
  sessionId: string,
  session: Session,
): Promise<void> {
  const r = from.repository;
  await to.repository.createSession(session);
  for (const agentId of await from.listAgents(sessionId)) {
    const agent = await r.readAgent(sessionId, agentId);
    if (!agent) continue;
    const messages = await r.listMessages(sessionId, agentId);
    await write(to.repository, sessionId, [
      { op: 'createAgent', agent },
      ...messages.map((message): SessionWrite => ({ op: 'createMessage', agentId, message })),
    ]);
  }
  for (const id of await from.listMultiAgents(sessionId)) {
    const multiAgent = await r.readMultiAgent(sessionId, id);
    if (!multiAgent) continue;
    // As committed: a step's last transitions that a crash cut after its commit point are copied too.
    const nodes = await r.readNodeEntries(sessionId, id);
    const transitions = committedTransitions(
      multiAgent.state,
      await r.readTransitions(sessionId, id),
      multiAgent.updated_at,
    );
    await write(to.repository, sessionId, [
      { op: 'createMultiAgent', multiAgent },
      ...Object.entries(nodes).map(
        ([nodeId, entry]): SessionWrite => ({ op: 'putNodeEntry', multiAgentId: id, nodeId, entry }),
      ),
      ...(transitions.length > 0 ? [{ op: 'appendTransitions', multiAgentId: id, transitions } as SessionWrite] : []),
    ]);
  }
}

/** Everything memory keeps of one resource, canonical (document versions left out: a copy starts at 1). */
async function memorySnapshot(store: InspectorStore, resource: string): Promise<string> {
  const documents = (await store.memory.listDocuments(resource)).map((d) => ({ key: d.key, value: d.value }));
  return canonical({ documents, messages: await store.memory.listMessages(resource) });
}

/** Copies one resource's memory (refused when `to` has memory of it: nothing is overwritten). */
async function copyMemory(from: InspectorStore, to: InspectorStore, resource: string): Promise<void> {
  if ((await to.memory.listResources()).includes(resource))
    throw new Error(
      `${to.label} already has memory of ${resource}; nothing was copied over it. Forget it there first (skein memory forget) or copy into an empty store.`,
    );
  await to.memory.putMessages(resource, await from.memory.listMessages(resource));
  for (const d of await from.memory.listDocuments(resource)) await to.memory.writeDocument(resource, d.key, d.value, 0);
}

/**
 * `skein sessions copy FROM TO`: copies every session of FROM into TO (any two stores), then reads
 * both back and checks they hold the same records. Returns the ids copied.
 */
export async function copySessions(
  from: InspectorStore,
  to: InspectorStore,
  log: (line: string) => void,
): Promise<string[]> {
  const ids = await from.listSessions();
  for (const id of ids) {
    await copySession(from, to, id);
    if ((await snapshot(from, id)) !== (await snapshot(to, id)))
      throw new Error(
        `Session ${id} reads back differently from ${to.label} than from ${from.label}; the copy is not trustworthy.`,
      );
    log(`copied ${id}`);
  }
  for (const resource of await from.memory.listResources()) {
    await copyMemory(from, to, resource);
    if ((await memorySnapshot(from, resource)) !== (await memorySnapshot(to, resource)))
      throw new Error(
        `The memory of ${resource} reads back differently from ${to.label} than from ${from.label}; the copy is not trustworthy.`,
      );
    log(`copied the memory of ${resource}`);
  }
  return ids;
}
