import { SessionConflictError, SessionNotFoundError } from '../../errors/session-errors.js';
import type { JsonObject } from '../../types/json.js';
import { checkSessionId, encodeBytes } from '../session-codec.js';
import type { SessionRepository, SessionWrite } from '../session-repository.js';
import { nowIso, type SessionMultiAgent } from '../session-types.js';
import { HISTORY_RUN_TYPE, HISTORY_TYPE, historyIndexId, historyRunId, stepEntryId } from './history-ids.js';
import { OrchestratorHistory } from './history-reader.js';
import type { ForkOrigin, StepSnapshot, StoredStep } from './history-types.js';
import { RunHistory } from './run-history.js';

/** What {@link forkSession} forks. */
export interface ForkSessionOptions {
  /** The session to fork from (only read, never written). */
  sessionId: string;
  /** The orchestrator (Graph or Swarm id) whose run is forked. */
  orchestratorId: string;
  /** The committed step the fork's run continues from (see `OrchestratorHistory.steps()`). */
  step: number;
  /** The new session's id, in the same store; it must not exist. */
  to: string;
  /**
   * Changes what the fork starts from (an orchestrator's validated edits), before anything is written;
   * returns what it changed, in words (recorded with the fork).
   */
  edit?: (snapshot: StepSnapshot) => string[] | Promise<string[]>;
  /** Entries kept with the fork's history index (a recording of the original run's later model outputs). */
  entries?: Record<string, JsonObject>;
}

/** The fork that {@link forkSession} made. */
export interface ForkResult {
  sessionId: string;
  orchestratorId: string;
  step: number;
  forkedFrom: ForkOrigin;
}

/**
 * Makes a new session `to` in the same store whose orchestrator run stands where the original stood
 * at `step` (optionally edited): its state document, node entries and transitions of that step, each
 * member agent with its messages and record then, and the run's history up to that step. Running the
 * orchestrator on the new session continues from there. The original session is only read. The new
 * session's state document is its commit point: it is written last (in one batch on stores with
 * `writeBatch`; elsewhere first marked `forking` and completed last), and a fork cut by a crash is
 * made again over its remains. The claim its writes took on `to` (a lock, a lease) is given up before
 * it returns or throws, so any writer, in this process or another, may open the fork at once.
 * Throws `SessionConflictError` when `to` exists.
 */
export async function forkSession(repo: SessionRepository, options: ForkSessionOptions): Promise<ForkResult> {
  const { sessionId, orchestratorId, step, to } = options;
  checkSessionId(to, 'session id');
  if (to === sessionId) throw new SessionConflictError(`A fork goes to a new session: ${to} is the session it forks.`);
  const history = new OrchestratorHistory(repo, sessionId, orchestratorId);
  const snapshot = await history.at(step);
  const path = await history.path(step);
  const index = await repo.readMultiAgent(sessionId, historyIndexId(orchestratorId));
  const type = typeof index?.state['type'] === 'string' ? index.state['type'] : 'graph';
  const edits = options.edit ? await options.edit(snapshot) : [];
  const forkedFrom: ForkOrigin = { sessionId, orchestratorId, step, at: nowIso(), edits };
  const cut = await interruptedFork(repo, to, orchestratorId);
  const writes = forkWrites(orchestratorId, type, snapshot, path, forkedFrom, options.entries ?? {});
  try {
    if (cut) await repo.deleteSession(to);
    const now = nowIso();
    await repo.createSession({ session_id: to, session_type: 'MULTI_AGENT', created_at: now, updated_at: now });
    if (repo.writeBatch) await repo.writeBatch(to, writes);
    else await writeInOrder(repo, to, writes);
  } finally {
    // The fork is a session like any other once made (or cut): no claim of this writer stays on it.
    await repo.release?.(to);
  }
  return { sessionId: to, orchestratorId, step, forkedFrom };
}

/** True when `to` holds what a fork cut by a crash left (its state document still says `forking`); refuses any other existing session. */
async function interruptedFork(repo: SessionRepository, to: string, orchestratorId: string): Promise<boolean> {
  if (!(await repo.readSession(to))) return false;
  const main = await repo.readMultiAgent(to, orchestratorId);
  if (main?.state['forking'] === true) return true;
  throw new SessionConflictError(`Session ${to} already exists; fork into a new session id (or delete ${to} first).`);
}

/**
 * The fork's writes, its state document last: member agents (record, then messages), the history
 * index (with the fork's origin and `entries`), run 1's record and its steps (the original run's up to
 * the fork point, whose entry holds the fork's whole starting point), then the state document, node
 * entries and transitions.
 */
function forkWrites(
  id: string,
  type: string,
  snapshot: StepSnapshot,
  path: readonly StoredStep[],
  forkedFrom: ForkOrigin,
  entries: Record<string, JsonObject>,
): SessionWrite[] {
  const now = nowIso();
  const doc = (docId: string, docType: string, state: JsonObject): SessionMultiAgent => ({
    id: docId,
    type: docType,
    state,
    created_at: now,
    updated_at: now,
  });
  const writes: SessionWrite[] = [];
  for (const [agentId, agent] of Object.entries(snapshot.agents)) {
    writes.push({ op: 'createAgent', agent: { agent_id: agentId, ...agent.record, created_at: now, updated_at: now } });
    for (const message of agent.rows) writes.push({ op: 'createMessage', agentId, message });
  }
  const origin = forkedFrom as unknown as JsonObject;
  const first = path[0]?.step ?? snapshot.step;
  const indexState = { ...RunHistory.indexState(id, type, 1, forkedFrom), firstStep: first };
  writes.push({ op: 'createMultiAgent', multiAgent: doc(historyIndexId(id), HISTORY_TYPE, indexState) });
  for (const [entryId, entry] of Object.entries(entries))
    writes.push({ op: 'putNodeEntry', multiAgentId: historyIndexId(id), nodeId: entryId, entry });
  const runState = {
    kind: 'skein.history.run',
    version: 1,
    of: id,
    run: 1,
    firstStep: first,
    startedAt: now,
    forkedFrom: origin,
  };
  const runId = historyRunId(id, 1);
  writes.push({ op: 'createMultiAgent', multiAgent: doc(runId, HISTORY_RUN_TYPE, runState) });
  const state = { ...snapshot.state, runNumber: 1, step: snapshot.step, transitionCount: snapshot.transitions.length };
  for (const s of path) {
    const atFork = s.step === snapshot.step;
    const entry = atFork
      ? { ...s, run: 1, state, nodes: snapshot.nodes, agents: agentsOf(snapshot) }
      : { ...s, run: 1 };
    writes.push({
      op: 'putNodeEntry',
      multiAgentId: runId,
      nodeId: stepEntryId(s.step),
      entry: encodeBytes(entry) as JsonObject,
    });
  }
  writes.push({ op: 'createMultiAgent', multiAgent: doc(id, type, state) });
  for (const [nodeId, entry] of Object.entries(snapshot.nodes))
    writes.push({ op: 'putNodeEntry', multiAgentId: id, nodeId, entry });
  if (snapshot.transitions.length > 0)
    writes.push({ op: 'appendTransitions', multiAgentId: id, transitions: snapshot.transitions });
  return writes;
}

const agentsOf = (snapshot: StepSnapshot): JsonObject =>
  Object.fromEntries(
    Object.entries(snapshot.agents).map(([agentId, a]) => [
      agentId,
      { nextMessageId: a.nextMessageId, record: a.record },
    ]),
  ) as JsonObject;

/**
 * The writes one by one where there is no batch: the state document is created first marked
 * `forking` (node entries and transitions need it), and rewritten without the mark last, as the commit point.
 */
async function writeInOrder(repo: SessionRepository, to: string, writes: readonly SessionWrite[]): Promise<void> {
  const main = writes.findLast((w) => w.op === 'createMultiAgent');
  if (!main || main.op !== 'createMultiAgent')
    throw new SessionNotFoundError('unreachable: a fork without its state document');
  const forking = { ...main.multiAgent, state: { ...main.multiAgent.state, forking: true } };
  await repo.createMultiAgent(to, forking);
  const byAgent = new Map<string, SessionWrite[]>();
  const rest: SessionWrite[] = [];
  for (const w of writes) {
    if (w === main) continue;
    if (w.op === 'createAgent') byAgent.set(w.agent.agent_id, [w]);
    else if (w.op === 'createMessage') byAgent.get(w.agentId)?.push(w);
    else rest.push(w);
  }
  // Each agent's record before its messages, agents side by side; history records before their entries.
  await Promise.all(
    [...byAgent.values()].map(async (list) => {
      for (const w of list) await applyWrite(repo, to, w);
    }),
  );
  for (const w of rest.filter((x) => x.op === 'createMultiAgent')) await applyWrite(repo, to, w);
  await Promise.all(rest.filter((x) => x.op !== 'createMultiAgent').map((w) => applyWrite(repo, to, w)));
  await repo.updateMultiAgent(to, main.multiAgent);
}

function applyWrite(repo: SessionRepository, sessionId: string, w: SessionWrite): Promise<void> {
  switch (w.op) {
    case 'createAgent':
      return repo.createAgent(sessionId, w.agent);
    case 'updateAgent':
      return repo.updateAgent(sessionId, w.agent);
    case 'createMessage':
      return repo.createMessage(sessionId, w.agentId, w.message);
    case 'updateMessage':
      return repo.updateMessage(sessionId, w.agentId, w.message);
    case 'deleteMessages':
      return repo.deleteMessages(sessionId, w.agentId, w.fromMessageId);
    case 'createMultiAgent':
      return repo.createMultiAgent(sessionId, w.multiAgent);
    case 'updateMultiAgent':
      return repo.updateMultiAgent(sessionId, w.multiAgent);
    case 'putNodeEntry':
      return repo.putNodeEntry(sessionId, w.multiAgentId, w.nodeId, w.entry);
    case 'appendTransitions':
      return repo.appendTransitions(sessionId, w.multiAgentId, w.transitions);
  }
}
