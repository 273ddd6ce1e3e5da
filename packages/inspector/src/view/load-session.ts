import { committedTransitions, errorMessage, isSideRecord, runDocumentId, type SessionMessage } from '@skein/core';
import type { InspectorStore } from '../store/inspector-store.js';
import { isInternalRecord } from './internal.js';
import { readOrchestratorDoc } from './read-orchestrator-doc.js';
import { readRunTokens, runTokens } from './run-tokens.js';
import { loadSteps } from './steps-view.js';
import type { AgentView, MessageView, OrchestratorView, Problem, SessionView } from './session-view.js';

const reason = (error: unknown): string => errorMessage(error);

/** Runs `read`; a failure becomes a problem in `problems` and `undefined`. */
async function attempt<T>(problems: Problem[], where: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    problems.push({ where, message: reason(error) });
    return undefined;
  }
}

const toView = (m: SessionMessage): MessageView => ({
  id: m.message_id,
  message: m.redact_message ?? m.message,
  redacted: m.redact_message !== null,
});

/** Messages one by one, when the listing failed: each unreadable one is shown as such, the rest still are. */
async function messagesOneByOne(
  store: InspectorStore,
  sessionId: string,
  agentId: string,
  limit: number,
): Promise<MessageView[]> {
  const views: MessageView[] = [];
  let missingRun = 0;
  for (let id = 0; id < limit && missingRun < 3; id++) {
    try {
      const m = await store.repository.readMessage(sessionId, agentId, id);
      if (m === undefined) {
        missingRun++;
        views.push({ id, redacted: false, problem: 'missing' });
      } else {
        missingRun = 0;
        views.push(toView(m));
      }
    } catch (error) {
      missingRun = 0;
      views.push({ id, redacted: false, problem: reason(error) });
    }
  }
  while (views.length > 0 && views[views.length - 1]?.problem === 'missing') views.pop();
  return views;
}

/** The whole conversation; when the listing fails, message by message so each unreadable one shows in place. */
async function readMessages(
  store: InspectorStore,
  sessionId: string,
  agentId: string,
  problems: Problem[],
): Promise<MessageView[]> {
  try {
    return (await store.repository.listMessages(sessionId, agentId)).map(toView);
  } catch (error) {
    problems.push({ where: `messages of agent ${agentId}`, message: reason(error) });
    return messagesOneByOne(store, sessionId, agentId, 100_000);
  }
}

async function loadAgent(
  store: InspectorStore,
  sessionId: string,
  agentId: string,
  withMessages: boolean,
): Promise<AgentView> {
  const problems: Problem[] = [];
  const record = await attempt(problems, `agent ${agentId}`, () => store.repository.readAgent(sessionId, agentId));
  const messages = withMessages ? await readMessages(store, sessionId, agentId, problems) : [];
  const view: AgentView = { id: agentId, messages, problems };
  if (record)
    Object.assign(view, {
      state: record.state,
      conversationManagerState: record.conversation_manager_state,
      updatedAt: record.updated_at,
    });
  return view;
}

async function loadOrchestrator(
  store: InspectorStore,
  sessionId: string,
  id: string,
  withSteps: boolean,
): Promise<OrchestratorView> {
  const problems: Problem[] = [];
  const doc = await attempt(problems, `orchestrator ${id}`, () => readOrchestratorDoc(store, sessionId, id));
  const nodes =
    (await attempt(problems, `node entries of ${id}`, () => store.repository.readNodeEntries(sessionId, id))) ?? {};
  const stored =
    (await attempt(problems, `transitions of ${id}`, () => store.repository.readTransitions(sessionId, id))) ?? [];
  // A run committed by a writer killed before it appended the step's transitions: its document carries them.
  const transitions = doc ? committedTransitions(doc.state, stored, doc.updatedAt ?? '') : stored;
  const view: OrchestratorView = {
    id,
    type: doc?.type ?? 'unknown',
    status: doc?.status ?? 'unknown',
    state: doc?.state ?? {},
    nodes,
    transitions,
    strands: doc?.strands ?? false,
    problems,
  };
  if (doc?.updatedAt) view.updatedAt = doc.updatedAt;
  const runDocument = await store.repository.readMultiAgent(sessionId, runDocumentId(id)).catch(() => undefined);
  if (runDocument) view.runDocument = runDocument.state;
  if (withSteps) {
    const steps = await attempt(problems, `steps of ${id}`, () => loadSteps(store, sessionId, id, 'current'));
    if (steps) view.steps = steps;
  }
  const tokens = view.steps
    ? runTokens(
        view.steps.map((s) => s.budgetTokens),
        view.state,
      )
    : await readRunTokens(store, sessionId, id, view.state).catch(() => undefined);
  if (tokens) view.tokens = tokens;
  return view;
}

/** Which agents' conversations {@link loadSession} reads: all (the default), none, or the ones named. */
export interface LoadOptions {
  messages?: 'all' | 'none' | readonly string[];
  /** Read each orchestrator's kept steps of its current run (default true: the page's step slider). */
  steps?: boolean;
  /** Read a server's own records too (`skein-server`: the conversation's owner and turns); default false. */
  internal?: boolean;
}

/**
 * Reads one session: its orchestrators, agents and (per `messages`) their conversations. Nothing it
 * finds broken stops it: each problem is recorded where it is.
 */
export async function loadSession(
  store: InspectorStore,
  sessionId: string,
  options: LoadOptions = {},
): Promise<SessionView> {
  const which = options.messages ?? 'all';
  const wanted = (id: string): boolean => which === 'all' || (which !== 'none' && which.includes(id));
  const problems: Problem[] = [];
  const session = await attempt(problems, 'session.json', () => store.repository.readSession(sessionId));
  if (session === undefined && problems.length === 0) problems.push({ where: 'session.json', message: 'missing' });
  const agentIds = (await attempt(problems, 'agents', () => store.listAgents(sessionId))) ?? [];
  // An orchestrator's history records (`<id>@history`, `<id>@run-...`) are read through it (`--steps`), not listed.
  const listed = (await attempt(problems, 'orchestrators', () => store.listMultiAgents(sessionId))) ?? [];
  const orchestratorIds = listed.filter(
    (id) => !isSideRecord(id) && (options.internal === true || !isInternalRecord(id)),
  );
  const agents = await Promise.all(agentIds.map((id) => loadAgent(store, sessionId, id, wanted(id))));
  const orchestrators = await Promise.all(
    orchestratorIds.map((id) => loadOrchestrator(store, sessionId, id, options.steps !== false)),
  );
  const view: SessionView = {
    id: sessionId,
    type: session?.session_type ?? 'unknown',
    agents,
    orchestrators,
    problems,
  };
  if (session) Object.assign(view, { createdAt: session.created_at, updatedAt: session.updated_at });
  return view;
}
