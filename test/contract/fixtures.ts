import type { Message, SessionAgent, SessionMessage, SessionRepository } from '@skein/core';

export const at = '2025-07-23T19:09:41.714508+00:00';
export const text = (role: 'user' | 'assistant', t: string): Message => ({ role, content: [{ text: t }] });
export const row = (id: number, message: Message = text(id % 2 ? 'assistant' : 'user', `m${id}`)): SessionMessage => ({
  message,
  message_id: id,
  redact_message: null,
  created_at: at,
  updated_at: at,
});
export const agentRecord = (agentId = 'default', state: SessionAgent['state'] = {}): SessionAgent => ({
  agent_id: agentId,
  state,
  conversation_manager_state: {},
  created_at: at,
  updated_at: at,
});

/** Creates session `sessionId` with agent `agentId`. */
export async function withAgent(r: SessionRepository, sessionId: string, agentId = 'default'): Promise<void> {
  await r.createSession({ session_id: sessionId, session_type: 'AGENT', created_at: at, updated_at: at });
  await r.createAgent(sessionId, agentRecord(agentId));
}

/** Creates session `sessionId` with orchestrator `id`. */
export async function withOrchestrator(r: SessionRepository, sessionId: string, id = 'g'): Promise<void> {
  await r.createSession({ session_id: sessionId, session_type: 'MULTI_AGENT', created_at: at, updated_at: at });
  await r.createMultiAgent(sessionId, { id, type: 'graph', state: { n: 0 }, created_at: at, updated_at: at });
}

export const transition = (seq: number, to: string | null = `n${seq}`) => ({
  seq,
  from: seq === 0 ? null : `n${seq - 1}`,
  to,
  kind: seq === 0 ? 'start' : 'edge',
  reason: 'r',
  at,
});
