import { errorMessage, isSideRecord } from '@skein/core';
import type { InspectorStore } from '../store/inspector-store.js';
import { readOrchestratorDoc } from './read-orchestrator-doc.js';

/** One line of `skein sessions`. */
export interface SessionSummary {
  id: string;
  type: string;
  agents: string[];
  orchestrators: { id: string; type: string; status: string }[];
  /** The latest update of anything in the session (ISO time), when known. */
  updatedAt: string | undefined;
  /** Tokens the orchestrators recorded, when they did. */
  tokens: number | undefined;
  problem?: string;
}

const latest = (times: (string | undefined)[]): string | undefined =>
  times
    .filter((t): t is string => !!t)
    .sort()
    .pop();

/** Reads what a listing needs, without the messages. */
export async function summarizeSession(store: InspectorStore, id: string): Promise<SessionSummary> {
  const summary: SessionSummary = {
    id,
    type: 'unknown',
    agents: [],
    orchestrators: [],
    updatedAt: undefined,
    tokens: undefined,
  };
  try {
    const session = await store.repository.readSession(id);
    const [agents, listed] = await Promise.all([store.listAgents(id), store.listMultiAgents(id)]);
    const multiAgents = listed.filter((m) => !isSideRecord(m));
    summary.agents = agents;
    const agentDocs = await Promise.all(agents.map((a) => store.repository.readAgent(id, a).catch(() => undefined)));
    const docs = await Promise.all(multiAgents.map((m) => readOrchestratorDoc(store, id, m).catch(() => undefined)));
    let tokens: number | undefined;
    for (const [i, doc] of docs.entries()) {
      summary.orchestrators.push({
        id: multiAgents[i] ?? '?',
        type: doc?.type ?? 'unknown',
        status: doc?.status ?? 'unreadable',
      });
      const usage = doc?.state['usage'];
      const total =
        typeof usage === 'object' && usage !== null && !Array.isArray(usage) ? usage['totalTokens'] : undefined;
      if (typeof total === 'number') tokens = (tokens ?? 0) + total;
    }
    summary.type = session?.session_type ?? 'unknown';
    summary.tokens = tokens;
    summary.updatedAt = latest([
      session?.updated_at,
      ...agentDocs.map((a) => a?.updated_at),
      ...docs.map((d) => d?.updatedAt),
    ]);
    if (!session) summary.problem = 'session.json missing';
  } catch (error) {
    summary.problem = errorMessage(error);
  }
  return summary;
}

/** Every session of the store, newest first. */
export async function listSessionSummaries(store: InspectorStore): Promise<SessionSummary[]> {
  const ids = await store.listSessions();
  const summaries = await Promise.all(ids.map((id) => summarizeSession(store, id)));
  return summaries.sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? '') || a.id.localeCompare(b.id));
}
