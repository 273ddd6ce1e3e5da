/**
 * Claims a conversation for one turn and starts it. In order: the store's view begins, the server's
 * record is read (who owns it, what it runs, how its last turn ended), the instance is built through its
 * factory, and the record is written with the new turn `running`: that write is the claim (the store's
 * lock or lease; a second process gets `SessionConflictError` -> 409) and the turn's commit point. A
 * new conversation is first entered in its principal's index, so it is never stored unlisted.
 */
import { nowIso, type SessionManager, type SessionRepository } from '@skein/core';
import { notFound, ProblemError } from '../http/problem.js';
import type { FactoryContext, Principal, ServerAction, TargetKind } from '../options.js';
import type { ServerContext } from '../server-context.js';
import {
  readRecord,
  writeRecord,
  type ConversationRecord,
  type CurrentTurn,
  type TurnPrompt,
} from '../store/conversation-record.js';
import { writeIndexEntry } from '../store/principal-index.js';
import { closeQuietly, ensureSession, repositoryOf } from '../store/repository-of.js';
import type { TraceParent } from '../telemetry/trace-parent.js';
import { acceptAnswers } from './accept-answers.js';
import { toProblem } from './errors-to-problems.js';
import { newTurnTag } from './interrupt-ids.js';
import { promptLabel, promptOfTurn } from './prompt.js';
import { planResume, type ResumePlan } from './resume-plan.js';
import type { Reservation, RunningTurn } from './run-registry.js';
import { buildTarget, standing, type Target } from './target.js';
import { startTurn } from './turn.js';
import type { TurnStatus } from './turn-result.js';
import { memoryTargetOf } from './memory-target.js';

/** One request for a turn. `prompt` undefined: resume the conversation's cut turn (a re-join). */
export interface TurnRequest {
  kind: TargetKind;
  name: string;
  /** The conversation as the client names it. */
  conversationId: string;
  /** Its session in the store (the conversation id in the principal's namespace). */
  sessionId: string;
  /** The route the request came by (`answers` and `ui` may answer interrupts). */
  door: ServerAction;
  principal: Principal;
  owner: string;
  prompt: TurnPrompt | undefined;
  traceParent: TraceParent | undefined;
  /** The AG-UI `runId`: stored with a new turn; the id of the conversation's last turn re-joins (resumes) it instead. */
  runId?: string | undefined;
}

interface Opened {
  repo: SessionRepository;
  manager: SessionManager;
  record: ConversationRecord | undefined;
  context: FactoryContext;
}

/** Statuses whose stored run the next invoke would resume instead of taking a new message. */
function unfinished(status: TurnStatus, kind: TargetKind): boolean {
  if (status === 'running' || status === 'stopped') return true;
  return kind !== 'agents' && (status === 'cancelled' || status === 'budgetExceeded');
}

/** The owner and target checks every conversation route makes. */
export function checkAccess(
  record: ConversationRecord | undefined,
  request: Pick<TurnRequest, 'conversationId' | 'owner' | 'kind' | 'name'>,
): void {
  if (!record) return;
  if (record.owner !== request.owner) throw notFound(`Conversation ${request.conversationId}`, 'path.id');
  if (record.kind !== request.kind || record.name !== request.name) {
    throw new ProblemError(
      409,
      'wrong-target',
      'The conversation belongs to another agent, graph or swarm',
      `Conversation ${request.conversationId} talks to ${record.kind}/${record.name}; use /v1/${record.kind}/${record.name}/conversations/${request.conversationId}, or another id.`,
      { field: 'path.id' },
    );
  }
}

/** The same checks for a turn running (or just finished) in this process, whose record is not read. */
export function checkRunAccess(
  run: { owner: string; kind: string; name: string },
  request: Pick<TurnRequest, 'conversationId' | 'owner' | 'kind' | 'name'>,
): void {
  checkAccess(
    { v: 1, kind: run.kind as TargetKind, name: run.name, owner: run.owner, createdAt: '', title: '' },
    request,
  );
}

/** Opens and starts a turn on a reserved conversation; `undefined` when a re-join finds nothing to resume. Releases the reservation on failure. */
export async function openTurn(
  ctx: ServerContext,
  request: TurnRequest,
  reservation: Reservation,
): Promise<RunningTurn | undefined> {
  const manager = ctx.options.sessions(request.sessionId);
  let started = false;
  try {
    const repo = repositoryOf(manager);
    await repo.beginView?.(request.sessionId);
    const record = await readRecord(repo, request.sessionId);
    checkAccess(record, request);
    const context: FactoryContext = {
      conversationId: request.conversationId,
      sessionId: request.sessionId,
      principal: request.principal,
      sessionManager: manager,
    };
    const opened: Opened = { repo, manager, record, context };
    const again = request.runId !== undefined && record?.current?.runId === request.runId;
    const claimed =
      request.prompt && !again
        ? await claimNew(ctx, request, request.prompt, opened)
        : again
          ? await claimAgain(ctx, request, opened)
          : await claimResume(ctx, request, opened);
    if (!claimed) return undefined;
    const memory = memoryTargetOf(ctx.options.authorize !== undefined, request.principal, request.conversationId);
    const runOptions = { ...(memory ? { memory } : {}), ...((await ctx.options.runOptions?.(context)) ?? {}) };
    const turn = startTurn({
      ctx,
      conversationId: request.conversationId,
      sessionId: request.sessionId,
      manager,
      repo,
      record: claimed.record,
      target: claimed.target,
      plan: claimed.plan,
      reservation,
      runOptions,
      traceParent: request.traceParent,
      principal: request.principal,
    });
    started = true;
    return turn;
  } catch (error) {
    throw toProblem(error, request.conversationId);
  } finally {
    if (!started) {
      await closeQuietly(manager);
      reservation.release();
    }
  }
}

interface Claimed {
  record: ConversationRecord & { current: CurrentTurn };
  target: Target;
  plan: ResumePlan;
}

async function claimNew(
  ctx: ServerContext,
  request: TurnRequest,
  prompt: TurnPrompt,
  opened: Opened,
): Promise<Claimed> {
  const { record, repo, context } = opened;
  const id = request.sessionId;
  const last = record?.current;
  await refuseWhileUnfinished(request, prompt, opened);
  const factory = ctx.factory(request.kind, request.name);
  if (!factory) throw notFound(`${request.kind}/${request.name}`, 'path.name');
  const target = await buildTarget(request.kind, request.name, factory, context);
  const asked =
    prompt.kind === 'answers' ? await acceptAnswers(ctx, target, prompt.answers, { request, waiting: last }) : prompt;
  const before = await standing(target, repo, id, record === undefined);
  const current: CurrentTurn = {
    seq: (last?.seq ?? 0) + 1,
    status: 'running',
    attempt: 0,
    startedAt: nowIso(),
    prompt: asked,
    before,
    tag: newTurnTag(),
    ...(request.runId !== undefined ? { runId: request.runId } : {}),
  };
  const next = record ? { ...record, current } : await createConversation(ctx, request, opened, target, current);
  if (record) await writeRecord(repo, id, next, true);
  return { record: next, target, plan: { action: 'run', prompt: promptOfTurn(asked) } };
}

/**
 * Refuses a new turn while the last one is unfinished (a turn stored as running is either cut or
 * running in another process: claiming the session, by rewriting the record as it is, tells which;
 * another process answers 409 through the conflict), and answers when nothing waits for them.
 */
async function refuseWhileUnfinished(request: TurnRequest, prompt: TurnPrompt, opened: Opened): Promise<void> {
  const { record, repo } = opened;
  const id = request.conversationId;
  const last = record?.current;
  if (last && unfinished(last.status, request.kind)) {
    if (last.status === 'running') await writeRecord(repo, request.sessionId, record as ConversationRecord, true);
    throw unfinishedProblem(id, last, request);
  }
  if (prompt.kind === 'answers' && last?.status !== 'interrupted') {
    throw new ProblemError(
      409,
      'nothing-pending',
      'Nothing waits for an answer',
      `Conversation ${id} waits for no answer; send a message instead.`,
      { field: 'body.answers' },
    );
  }
}

/** A conversation's first turn: its entry in the owner's index, its session, its record. */
async function createConversation(
  ctx: ServerContext,
  request: TurnRequest,
  opened: Opened,
  target: Target,
  current: CurrentTurn,
): Promise<ConversationRecord & { current: CurrentTurn }> {
  const id = request.sessionId;
  const createdAt = current.startedAt;
  const title = promptLabel(current.prompt).slice(0, 80);
  await writeIndexEntry(ctx.options.sessions, request.owner, {
    id: request.conversationId,
    kind: request.kind,
    name: request.name,
    createdAt,
    title,
  });
  await ensureSession(opened.repo, id, target.kind === 'agent' ? 'AGENT' : 'MULTI_AGENT', opened.manager);
  const created = {
    v: 1 as const,
    kind: request.kind,
    name: request.name,
    owner: request.owner,
    createdAt,
    title,
    current,
  };
  await writeRecord(opened.repo, id, created, false);
  return created;
}

async function claimResume(ctx: ServerContext, request: TurnRequest, opened: Opened): Promise<Claimed | undefined> {
  const { record, repo, context } = opened;
  if (!record) throw notFound(`Conversation ${request.conversationId}`, 'path.id');
  const last = record.current;
  if (!last || !unfinished(last.status, request.kind)) return undefined;
  const factory = ctx.factory(request.kind, request.name);
  if (!factory) throw notFound(`${request.kind}/${request.name}`, 'path.name');
  const target = await buildTarget(request.kind, request.name, factory, context);
  const plan = await planResume(target, last, repo, request.sessionId);
  const { endedAt: _ended, ...rest } = last;
  const current: CurrentTurn = { ...rest, status: 'running', attempt: last.attempt + 1 };
  const next = { ...record, current };
  await writeRecord(repo, request.sessionId, next, true);
  return { record: next, target, plan };
}

/** A request naming the run of the conversation's last turn again: resumes it when it is unfinished, else 409. */
async function claimAgain(ctx: ServerContext, request: TurnRequest, opened: Opened): Promise<Claimed> {
  const claimed = await claimResume(ctx, request, opened);
  if (claimed) return claimed;
  const last = opened.record?.current;
  throw new ProblemError(
    409,
    'run-finished',
    'The run has finished',
    `Run ${JSON.stringify(request.runId?.slice(0, 80))} (turn ${last?.seq}) of ${request.conversationId} ended ${last?.status}, and its events are no longer kept. Start a new run with a new runId; GET /v1/${request.kind}/${request.name}/conversations/${request.conversationId} reads what it did.`,
    { field: 'body.runId', turn: last?.seq, turnStatus: last?.status },
  );
}

function unfinishedProblem(id: string, last: CurrentTurn, request: TurnRequest): ProblemError {
  const how =
    last.status === 'running' || last.status === 'stopped'
      ? 'was cut when its server process stopped'
      : `ended ${last.status}, and the ${request.kind === 'graphs' ? 'graph' : 'swarm'} resumes such a run on its next invoke`;
  return new ProblemError(
    409,
    'turn-unfinished',
    'The last turn is unfinished',
    `Turn ${last.seq} of conversation ${id} ${how}. Re-join it first (GET /v1/${request.kind}/${request.name}/conversations/${id}/stream resumes it), or DELETE the conversation to drop it.`,
    { field: 'path.id', turn: last.seq, turnStatus: last.status },
  );
}
