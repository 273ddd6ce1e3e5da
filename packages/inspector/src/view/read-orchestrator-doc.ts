import type { JsonObject } from '@skein/core';
import type { InspectorStore } from '../store/inspector-store.js';

/** An orchestrator's document, skein's or Strands Agents'. */
export interface OrchestratorDoc {
  type: string;
  /** Lower-case status, or `unknown`. */
  status: string;
  state: JsonObject;
  updatedAt: string | undefined;
  /** True when written by Strands Agents (its fields sit at the top of multi_agent.json, not under `state`). */
  strands: boolean;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads `multi_agent.json` through the repository, falling back to its raw JSON for Strands' format. Undefined when missing. */
export async function readOrchestratorDoc(
  store: InspectorStore,
  sessionId: string,
  id: string,
): Promise<OrchestratorDoc | undefined> {
  const doc = await store.repository.readMultiAgent(sessionId, id);
  if (!doc) return undefined;
  let state: JsonObject = doc.state;
  let type = doc.type;
  let strands = false;
  if (Object.keys(state).length === 0) {
    const raw = await store.readRawMultiAgent(sessionId, id);
    if (isObject(raw) && 'status' in raw) {
      state = raw;
      strands = true;
      if (type === '' && typeof raw['type'] === 'string') type = raw['type'];
    }
  }
  const status = typeof state['status'] === 'string' ? state['status'].toLowerCase() : 'unknown';
  return { type: type || 'unknown', status, state, updatedAt: doc.updated_at || undefined, strands };
}
