import { errorMessage, isSideRecord } from '@skein/core';
import type { InspectorStore } from '../store/inspector-store.js';
import { isInternalRecord, isInternalSession } from './internal.js';
import { readOrchestratorDoc } from './read-orchestrator-doc.js';
import { readRunTokens } from './run-tokens.js';

/** One line of `skein sessions`. */
export interface SessionSummary {
  id: string;
  type: string;
  agents: string[];
  orchestrators: { id: string; type: string; status: string }[];
  /** The latest update of anything in the session (ISO time), when known. */
  updatedAt: string | undefined;
  /** The tokens of the orchestrators' current runs, counted as `show` counts them (see `run-tokens.ts`), when known. */
  tokens: number | undefined;
  problem?: string;
}

const latest = (times: (string | undefined)[]): string | undefined =>
  times
    .filter((t): t is string => !!t)
    .sort()
    .pop();

/** Which sessions and records a listing shows. */
export interface SummaryOptions {
  /** Also a server's own sessions and records (ids beginning with `skein-`); default false. */
  internal?: boolean;
}

/** Reads what a listing needs, without the messages. */
export async function summarizeSession(
  store: InspectorStore,
  id: string,
  options: SummaryOptions = {},
): Promise<SessionSummary> {
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
    const multiAgents = listed.filter((m) => !isSideRecord(m) && (options.internal === true || !isInternalRecord(m)));
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
      if (!doc) continue;
      const counted = await readRunTokens(store, id, multiAgents[i] ?? '', doc.state).catch(() => undefined);
      if (counted) tokens = (tokens ?? 0) + counted.tokens;
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

/** Every session of the store, newest first (a server's own sessions only with `internal`). */
export async function listSessionSummaries(
  store: InspectorStore,
  options: SummaryOptions = {},
): Promise<SessionSummary[]> {
  const ids = (await store.listSessions()).filter((id) => options.internal === true || !isInternalSession(id));
  const summaries = await Promise.all(ids.map((id) => summarizeSession(store, id, options)));
  return summaries.sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? '') || a.id.localeCompare(b.id));
}
