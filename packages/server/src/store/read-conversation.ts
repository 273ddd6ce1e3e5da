/**
 * Reading a conversation for `GET` routes: through the store's repository only, so a read never
 * writes (nor creates a session), and never waits for a running turn.
 */
import {
  encodeBytes,
  readCommittedTransitions,
  type JsonValue,
  type SessionManager,
  type SessionRepository,
} from '@skein/core';
import { notFound } from '../http/problem.js';
import type { ConversationRoute } from '../http/route-context.js';
import { checkAccess } from '../runs/open-turn.js';
import { publicAnswers, publicInterrupts } from '../runs/interrupt-ids.js';
import { promptText } from '../runs/prompt.js';
import { buildTarget, pendingOf, type Target } from '../runs/target.js';
import type { ServerContext } from '../server-context.js';
import { readRecord, readTurnEntries, type ConversationRecord } from './conversation-record.js';
import { closeQuietly, repositoryOf } from './repository-of.js';

/** An open read of one conversation; `close()` when done. */
export interface ConversationRead {
  repo: SessionRepository;
  manager: SessionManager;
  record: ConversationRecord;
  close(): Promise<void>;
}

/** Opens `route`'s conversation for reading: 404 when it is missing or another principal's. */
export async function openRead(ctx: ServerContext, route: ConversationRoute): Promise<ConversationRead> {
  const manager = ctx.options.sessions(route.sessionId);
  try {
    const repo = repositoryOf(manager);
    const record = await readRecord(repo, route.sessionId);
    if (!record) throw notFound(`Conversation ${route.conversationId}`, 'path.id');
    checkAccess(record, route);
    return { repo, manager, record, close: () => closeQuietly(manager) };
  } catch (error) {
    await closeQuietly(manager);
    throw error;
  }
}

/** The instance the conversation runs, built only to learn its ids (nothing runs). */
export async function targetFor(ctx: ServerContext, route: ConversationRoute, read: ConversationRead): Promise<Target> {
  const factory = ctx.factory(route.kind, route.name);
  if (!factory) throw notFound(`${route.kind}/${route.name}`, 'path.name');
  return buildTarget(route.kind, route.name, factory, {
    conversationId: route.conversationId,
    sessionId: route.sessionId,
    principal: route.principal,
    sessionManager: read.manager,
  });
}

/** Everything `GET .../conversations/{id}` answers. */
export async function conversationView(
  ctx: ServerContext,
  route: ConversationRoute,
  read: ConversationRead,
): Promise<Record<string, JsonValue>> {
  const { record, repo } = read;
  const id = route.sessionId;
  const running = ctx.registry.running(id);
  const entries = await readTurnEntries(repo, id);
  const turns: JsonValue[] = entries.map((e) => e as unknown as JsonValue);
  const current = record.current;
  if (current && (current.status === 'running' || running)) {
    turns.push({
      turn: current.seq,
      status: 'running',
      prompt: promptText(current.prompt),
      ...(current.prompt.kind === 'answers' ? { answers: publicAnswers(current.prompt) } : {}),
      startedAt: current.startedAt,
    });
  }
  const target = await targetFor(ctx, route, read);
  const view: Record<string, JsonValue> = {
    id: route.conversationId,
    kind: record.kind,
    name: record.name,
    createdAt: record.createdAt,
    status: running ? 'running' : (current?.status ?? 'new'),
    turns,
    interrupts: [],
  };
  if (target.kind === 'agent') {
    const stored = await repo.listMessages(id, target.agent.id).catch(() => []);
    view['messages'] = stored.map((m) => encodeBytes(m.redact_message ?? m.message) as JsonValue);
  } else {
    view['transitions'] = (await readCommittedTransitions(repo, id, target.multi.id)) as unknown as JsonValue;
  }
  if (!running && current?.status === 'interrupted')
    view['interrupts'] = publicInterrupts(await pendingOf(target), current) as unknown as JsonValue;
  return view;
}
