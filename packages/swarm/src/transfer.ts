import type { HandoffInputData, HandoffRequest, InvocationState, JsonValue, Message, MultiAgentStreamEvent } from '@skein/core';
import { resolveInputFilter, type HandoffRunSettings } from '@skein/handoffs';
import { handoffNote } from './handoff-note.js';
import { transferLimit } from './limits.js';
import type { SwarmMembers } from './swarm-members.js';
import type { ResolvedSwarmOptions } from './swarm-options.js';
import type { SwarmRunState } from './swarm-state.js';
import type { SwarmStore } from './swarm-store.js';
import { transferPayload } from './transfer-input.js';

/** What a transfer needs from the swarm. */
export interface TransferContext {
  state: SwarmRunState;
  members: SwarmMembers;
  options: ResolvedSwarmOptions;
  settings: HandoffRunSettings;
  store: SwarmStore;
  invocationState: InvocationState;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Performs the transfer `from` asked for: checks the handoff budget and ping-pong detection, adds the
 * shared context, filters the conversation, appends the note for the next agent, records the
 * transition and makes the target current. Returns a failure reason instead of throwing.
 */
export async function* performTransfer(
  ctx: TransferContext,
  from: string,
  request: HandoffRequest,
  newItems: Message[],
): AsyncGenerator<MultiAgentStreamEvent, { failure: string | undefined }> {
  const { state, members } = ctx;
  const to = members.idOf(request.target);
  if (to === undefined) return { failure: `${from} handed off to ${request.target.name}, which is not a member of the swarm.` };
  const limit = transferLimit(ctx.options, state.handoffCount, state.nodeHistory, from, to);
  if (limit) return { failure: limit };
  let payload: ReturnType<typeof transferPayload>;
  try {
    payload = transferPayload(request.input);
  } catch (error) {
    return { failure: `The transfer from ${from} to ${to} failed: ${message(error)}` };
  }
  const data: HandoffInputData = {
    inputHistory: state.conversation.inputHistory,
    preHandoffItems: state.conversation.items,
    newItems,
    context: { agent: members.agent(from), invocationState: ctx.invocationState },
  };
  const filter = resolveInputFilter(request.handoff, ctx.settings);
  let shaped: HandoffInputData;
  try {
    shaped = filter ? await filter(data) : data;
    if (!Array.isArray(shaped?.inputHistory) || !Array.isArray(shaped.preHandoffItems) || !Array.isArray(shaped.newItems)) {
      throw new TypeError('it must return { inputHistory, preHandoffItems, newItems } arrays');
    }
  } catch (error) {
    return { failure: `The input filter of ${request.handoff.toolName} failed: ${message(error)}` };
  }
  if (payload.context) state.sharedContext[from] = { ...state.sharedContext[from], ...structuredClone(payload.context) };
  const note = handoffNote({ from, to, message: payload.message, sharedContext: state.sharedContext });
  state.conversation = { inputHistory: [...shaped.inputHistory], items: [...shaped.preHandoffItems, ...shaped.newItems, note] };
  state.pendingHandoff = { from, to, toolName: request.handoff.toolName, toolUseId: request.toolUseId, input: (request.input ?? null) as JsonValue };
  state.handoffCount++;
  state.current = to;
  const reason = payload.message ?? `${from} called ${request.handoff.toolName}`;
  const transition = await ctx.store.record({ from, to, kind: 'handoff', reason });
  yield { type: 'transition', transition };
  return { failure: undefined };
}
