/**
 * Each case of an eval run is a conversation of the principal who ran it: listed in their index,
 * read with `GET .../conversations/{id}`, rewound and forked like any other. Before the case runs,
 * its record (owner, target, title) is stored; once it is scored, each customer turn is stored as a
 * finished turn, the record last (its commit point, as for a turn the server ran itself).
 */
import { nowIso, type SessionManager } from '@skein/core';
import type { CaseResult } from '@skein/evals';
import type { TargetRoute } from '../http/route-context.js';
import type { TurnStatus } from '../runs/turn-result.js';
import { readRecord, writeRecord, type ConversationRecord } from './conversation-record.js';
import { writeIndexEntry } from './principal-index.js';
import { closeQuietly, ensureSession, repositoryOf } from './repository-of.js';

type Sessions = (id: string) => SessionManager;

const STATUSES: readonly string[] = ['completed', 'interrupted', 'failed', 'cancelled', 'budgetExceeded', 'stopped'];

/** A case run's status as a turn's (an agent's other stop reasons and a thrown target are `failed`). */
const turnStatus = (status: string): TurnStatus => (STATUSES.includes(status) ? (status as TurnStatus) : 'failed');

/** Stores the record and index entry of case conversation `conversationId` (session `sessionId`) before it runs. */
export async function openCaseConversation(
  sessions: Sessions,
  route: TargetRoute,
  conversationId: string,
  sessionId: string,
  title: string,
): Promise<void> {
  const createdAt = nowIso();
  await writeIndexEntry(sessions, route.owner, {
    id: conversationId,
    kind: route.kind,
    name: route.name,
    createdAt,
    title,
  });
  const manager = sessions(sessionId);
  try {
    const repo = repositoryOf(manager);
    await ensureSession(repo, sessionId, route.kind === 'agents' ? 'AGENT' : 'MULTI_AGENT');
    const record: ConversationRecord = {
      v: 1,
      kind: route.kind,
      name: route.name,
      owner: route.owner,
      createdAt,
      title,
    };
    await writeRecord(repo, sessionId, record, false);
  } finally {
    await closeQuietly(manager);
  }
}

/** Stores the turns of a scored case run in its conversation (session `sessionId`), the record last. */
export async function closeCaseConversation(sessions: Sessions, sessionId: string, result: CaseResult): Promise<void> {
  const manager = sessions(sessionId);
  try {
    const repo = repositoryOf(manager);
    const record = await readRecord(repo, sessionId);
    if (!record) return;
    const turns = result.run.turns;
    const startedAt = record.createdAt;
    for (const [i, turn] of turns.entries()) {
      const last = i === turns.length - 1;
      const status = turnStatus(last && result.run.error ? 'failed' : turn.status);
      const entry = {
        turn: i + 1,
        status,
        prompt: turn.input,
        text: turn.text,
        ...(turn.failureReason ? { failureReason: turn.failureReason } : {}),
        startedAt,
        endedAt: result.at,
      };
      const current = {
        seq: i + 1,
        status,
        attempt: 0,
        startedAt,
        endedAt: result.at,
        prompt: { kind: 'message' as const, message: turn.input },
        before: null,
      };
      await writeRecord(repo, sessionId, { ...record, current }, true, entry);
    }
  } finally {
    await closeQuietly(manager);
  }
}
