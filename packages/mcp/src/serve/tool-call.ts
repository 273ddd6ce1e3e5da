/**
 * One MCP tool call: a turn of the target in the conversation the call names (a new one without
 * `conversationId`), run through the server's routes. While it runs, its events go to the client as
 * progress notifications (when it sent a progress token) and a cancellation from the client cancels
 * the turn at its next safe point. When the turn waits for an answer: a client that declared
 * elicitation is asked, and the run goes on with its answers; otherwise the result says what waits,
 * and a second call with `answers` continues it.
 */
import { randomUUID } from 'node:crypto';
import type { Interrupt, JsonValue } from '@skein/core';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import type { ServerEvent, TurnResult } from '@skein/server';
import { answerFrom, elicitationFor } from './elicitation.js';
import { progressLine } from './progress-events.js';
import { DoorRefusal, type DoorTarget, type ServerDoor } from './server-door.js';
import { errorResult, turnToolResult } from './tool-result.js';

/** The arguments of every tool (checked by the SDK against the tool's input schema first). */
export interface CallArguments {
  message?: string | undefined;
  conversationId?: string | undefined;
  answers?: Record<string, JsonValue> | undefined;
}

/** What a call needs of its MCP request. */
export interface CallContext {
  ctx: ServerContext;
  /** The client declared the elicitation capability (form mode). */
  canElicit: boolean;
}

const PROBLEM = 'https://skein.dev/problems#';

/** Runs one tool call; refusals of the server become error results (nothing was run or stored). */
export async function callTarget(
  door: ServerDoor,
  target: DoorTarget,
  args: CallArguments,
  call: CallContext,
): Promise<CallToolResult> {
  const asks = (args.message !== undefined ? 1 : 0) + (args.answers !== undefined ? 1 : 0);
  if (asks !== 1)
    return errorResult(
      'Send either message (a new message) or answers (to what the conversation waits for, with its conversationId), not both or neither.',
    );
  if (args.answers !== undefined && args.conversationId === undefined)
    return errorResult('answers need the conversationId of the conversation that waits for them.');
  const id = args.conversationId ?? `mcp-${randomUUID()}`;
  try {
    if (args.conversationId !== undefined) await door.pending(target, id);
    let events =
      args.answers !== undefined
        ? door.answers(target, id, args.answers)
        : await messageEvents(door, target, id, args, call);
    for (;;) {
      const result = await follow(events, door, target, id, call);
      if (result.status !== 'interrupted' || !call.canElicit) return turnToolResult(result);
      const answers = await elicit(result.interrupts, call.ctx);
      if (!answers) return turnToolResult(result);
      events = door.answers(target, id, answers);
    }
  } catch (error) {
    if (error instanceof DoorRefusal) return errorResult(refusalText(error, id));
    throw error;
  }
}

/**
 * The events of a new message. A conversation whose last turn was cut (its process died mid-turn)
 * is resumed first, through the server's re-join, with its events sent as progress.
 */
async function messageEvents(
  door: ServerDoor,
  target: DoorTarget,
  id: string,
  args: CallArguments,
  call: CallContext,
): Promise<AsyncGenerator<ServerEvent>> {
  const message = args.message ?? '';
  const first = door.message(target, id, message);
  try {
    const head = await first.next();
    return prepend(head, first);
  } catch (error) {
    if (!(error instanceof DoorRefusal) || error.problem.type !== `${PROBLEM}turn-unfinished`) throw error;
  }
  const resumed = await follow(door.rejoin(target, id), door, target, id, call);
  if (resumed.status === 'interrupted')
    return (async function* () {
      yield { type: 'turnEnd', result: resumed } as ServerEvent;
    })();
  return door.message(target, id, message);
}

async function* prepend(
  head: IteratorResult<ServerEvent>,
  rest: AsyncGenerator<ServerEvent>,
): AsyncGenerator<ServerEvent> {
  if (head.done) return;
  yield head.value;
  yield* rest;
}

/** Follows a turn's events to its end: progress out, cancellation in. */
async function follow(
  events: AsyncIterable<ServerEvent>,
  door: ServerDoor,
  target: DoorTarget,
  id: string,
  call: CallContext,
): Promise<TurnResult> {
  const { ctx } = call;
  const token = ctx.mcpReq._meta?.progressToken;
  const signal = ctx.mcpReq.signal;
  const cancel = (): void => void door.cancel(target, id);
  signal.addEventListener('abort', cancel, { once: true });
  let progress = 0;
  try {
    for await (const event of events) {
      if (event.type === 'turnStart' && signal.aborted) cancel();
      if (event.type === 'turnEnd') return event.result;
      if (token === undefined) continue;
      const line = progressLine(event);
      if (!line) continue;
      progress++;
      await ctx.mcpReq
        .notify({
          method: 'notifications/progress',
          params: { progressToken: token, progress, message: line.message, _meta: { 'dev.skein/event': line.event } },
        })
        .catch(() => undefined);
    }
  } finally {
    signal.removeEventListener('abort', cancel);
  }
  throw new Error(`The turn of conversation ${id} ended without its turnEnd event.`);
}

/** Asks the client about each interrupt; the answers, or `undefined` when one stays unanswered. */
async function elicit(
  interrupts: readonly Interrupt[],
  ctx: ServerContext,
): Promise<Record<string, JsonValue> | undefined> {
  const answers: Record<string, JsonValue> = {};
  for (const interrupt of interrupts) {
    const result = await ctx.mcpReq.elicitInput(elicitationFor(interrupt), { signal: ctx.mcpReq.signal });
    const answer = answerFrom(interrupt, result);
    if (answer === undefined) return undefined;
    answers[interrupt.id] = answer;
  }
  return answers;
}

/** What the client's model reads when the server refused the call. */
function refusalText(refusal: DoorRefusal, id: string): string {
  const { problem, status } = refusal;
  if (status === 404 && problem.field === 'path.id')
    return `Unknown conversation ${JSON.stringify(id)}: no conversation of yours has this id. Leave conversationId out to start a new one, or use the conversationId a result of this tool gave you.`;
  return `${problem.title} (${status}): ${problem.detail ?? ''}`.trim();
}
