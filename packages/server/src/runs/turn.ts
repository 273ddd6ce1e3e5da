/**
 * Runs one turn, detached from the request that started it (a client that goes away does not stop
 * it; `cancel` does): streams the target into the turn's event log, then stores the turn's end in the
 * server's record (the commit point), gives up the session's claim, frees the conversation, and only
 * then sends `turnEnd`, so a client that reads `turnEnd` can send the next message at once.
 */
import {
  CancelledError,
  GuardrailTripped,
  SessionError,
  SkeinError,
  nowIso,
  type JsonObject,
  type JsonValue,
  type Principal,
  type SessionManager,
  type SessionRepository,
} from '@skein/core';
import type { RunOptions } from '../options.js';
import type { ServerContext } from '../server-context.js';
import type { ServerEvent } from '../stream/server-events.js';
import { toServerEvents, type CoreEvent } from '../stream/to-server-events.js';
import { runUnderParent, type TraceParent } from '../telemetry/trace-parent.js';
import {
  writeRecord,
  type ConversationRecord,
  type CurrentTurn,
  type TurnPrompt,
} from '../store/conversation-record.js';
import { writeIndexEntry } from '../store/principal-index.js';
import { StoredPrompt } from './stored-prompt.js';
import { closeQuietly } from '../store/repository-of.js';
import { EventLog } from './event-log.js';
import { publicAnswers, publicInterrupts } from './interrupt-ids.js';
import { promptLabel, promptText } from './prompt.js';
import type { ResumePlan } from './resume-plan.js';
import type { Reservation, RunningTurn } from './run-registry.js';
import { streamTarget, type Target } from './target.js';
import { blockedTurn, failedTurn, turnResultOf, type AbortCause, type TurnResult } from './turn-result.js';

/** Everything a claimed turn needs to run. */
export interface TurnSetup {
  ctx: ServerContext;
  /** The conversation as the client names it. */
  conversationId: string;
  /** Its session in the store. */
  sessionId: string;
  manager: SessionManager;
  repo: SessionRepository;
  /** The record as stored, with `current` the turn now running. */
  record: ConversationRecord & { current: CurrentTurn };
  target: Target;
  plan: ResumePlan;
  reservation: Reservation;
  runOptions: RunOptions;
  traceParent: TraceParent | undefined;
  /** Who sent the request (guardrails read it as `context.principal`). */
  principal: Principal;
}

const ROOT: readonly string[] = Object.freeze([]);

/** Starts the turn; the returned handle is what the registry holds. */
export function startTurn(setup: TurnSetup): RunningTurn {
  const { record, conversationId } = setup;
  const current = record.current;
  const log = new EventLog(current.seq, current.attempt, setup.ctx.limits.maxEventsPerTurn);
  const controller = new AbortController();
  let cause: AbortCause;
  let resolveDone: (result: TurnResult) => void = () => undefined;
  const done = new Promise<TurnResult>((resolve) => {
    resolveDone = resolve;
  });
  const turn: RunningTurn = {
    conversationId,
    kind: record.kind,
    name: record.name,
    owner: record.owner,
    turn: current.seq,
    startedAt: current.startedAt,
    runId: current.runId,
    log,
    done,
    abort: (why) => {
      cause ??= why;
      controller.abort(new CancelledError(why === 'stop' ? 'The server is stopping.' : 'The turn was cancelled.'));
    },
  };
  setup.reservation.start(turn);
  void execute(setup, log, controller.signal, () => cause).then(resolveDone);
  return turn;
}

async function execute(
  setup: TurnSetup,
  log: EventLog,
  signal: AbortSignal,
  cause: () => AbortCause,
): Promise<TurnResult> {
  const { ctx, conversationId, record, plan } = setup;
  const current = record.current;
  log.append({
    type: 'turnStart',
    turn: current.seq,
    attempt: current.attempt,
    resumed: current.attempt > 0,
    answering: current.prompt.kind === 'answers',
    kind: record.kind,
    name: record.name,
  });
  let result: TurnResult;
  const stored = new StoredPrompt();
  try {
    if (plan.action === 'report') {
      result = { ...plan.result, conversationId, turn: current.seq };
      if (result.interrupts.length > 0) log.append({ type: 'interrupt', path: ROOT, interrupts: result.interrupts });
    } else {
      result = await runUnderParent(setup.traceParent, () =>
        streamInto(setup, plan.prompt, log, signal, cause, stored),
      );
    }
    result = { ...result, interrupts: publicInterrupts(result.interrupts, current) };
  } catch (error) {
    if (GuardrailTripped.is(error)) result = blockedTurn(conversationId, current.seq, error);
    else result = failedTurn(conversationId, current.seq, failureText(error));
    if (!SkeinError.is(error) || SessionError.is(error)) ctx.report(error, `turn ${current.seq} of ${conversationId}`);
  }
  await commit(setup, result, stored.kept(current.prompt, result));
  await closeQuietly(setup.manager);
  setup.reservation.release({
    owner: record.owner,
    kind: record.kind,
    name: record.name,
    runId: current.runId,
    log,
  });
  log.append({ type: 'turnEnd', result });
  log.end();
  return result;
}

async function streamInto(
  setup: TurnSetup,
  prompt: Parameters<typeof streamTarget>[1],
  log: EventLog,
  signal: AbortSignal,
  cause: () => AbortCause,
  stored: StoredPrompt,
): Promise<TurnResult> {
  const gen = streamTarget(setup.target, prompt, signal, setup.runOptions, setup.principal);
  const out: ServerEvent[] = [];
  for (;;) {
    const step = await gen.next();
    if (step.done) {
      stored.seeResult(step.value);
      return turnResultOf(setup.conversationId, setup.record.current.seq, step.value, cause());
    }
    out.length = 0;
    stored.see(step.value as unknown as CoreEvent);
    toServerEvents(step.value as unknown as CoreEvent, ROOT, out);
    for (const event of out)
      log.append(
        event.type === 'interrupt'
          ? { ...event, interrupts: publicInterrupts(event.interrupts, setup.record.current) }
          : event,
      );
  }
}

/** Stores the turn's end: its entry, then the record (the commit point). A failure is reported, not thrown: the record still says `running`, and the next re-join finds the finished run and reports it. */
async function commit(setup: TurnSetup, result: TurnResult, prompt: TurnPrompt): Promise<void> {
  const { record, repo, conversationId } = setup;
  const endedAt = nowIso();
  const current: CurrentTurn = { ...record.current, prompt, status: result.status, endedAt };
  // A first prompt a guardrail redacted or blocked also names the conversation as it was stored.
  const retitled = prompt !== record.current.prompt && current.seq === 1;
  const title = retitled ? promptLabel(prompt).slice(0, 80) : record.title;
  try {
    if (retitled) await retitle(setup, title);
    await writeRecord(repo, setup.sessionId, { ...record, title, current }, true, {
      turn: current.seq,
      status: result.status,
      prompt: promptText(current.prompt),
      // What a person answered (an approval and its note): the conversation shows the decision.
      ...(current.prompt.kind === 'answers' ? { answers: publicAnswers(current.prompt) } : {}),
      text: result.text,
      ...(result.interrupts.length > 0 ? { interrupts: result.interrupts as unknown as JsonValue[] } : {}),
      ...(result.failureReason !== undefined ? { failureReason: result.failureReason } : {}),
      ...(result.guardrail ? { guardrail: { ...result.guardrail } as JsonObject } : {}),
      startedAt: current.startedAt,
      endedAt,
    });
  } catch (error) {
    setup.ctx.report(error, `storing the end of turn ${current.seq} of ${conversationId}`);
  }
}

/** Renames the conversation in its owner's index (its first prompt was redacted or blocked). */
function retitle(setup: TurnSetup, title: string): Promise<void> {
  const { record } = setup;
  const entry = { id: setup.conversationId, kind: record.kind, name: record.name, createdAt: record.createdAt, title };
  return writeIndexEntry(setup.ctx.options.sessions, record.owner, entry);
}

/** What a client is told about a run that threw: a skein error's message (a store's own details left out), else nothing of it. */
function failureText(error: unknown): string {
  if (SessionError.is(error))
    return `The conversation's store failed (${error.code}); the turn did not finish. Send it again, or re-join the stream to resume it.`;
  if (SkeinError.is(error)) return `${error.name}: ${error.message}`.slice(0, 500);
  return 'The run failed with an unexpected error (the server log has it).';
}
