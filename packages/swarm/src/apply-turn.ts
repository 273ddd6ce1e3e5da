import {
  checkMessages,
  type Handoff,
  type HandoffContext,
  type HandoffInputData,
  type JsonObject,
  type Message,
} from '@skein/core';
import { nestHandoffHistory, resolveInputFilter, type HandoffRunSettings } from '@skein/handoffs';
import { handoffNote } from './handoff-note.js';
import type { SwarmConversation } from './swarm-turn.js';
import { transferPayload } from './transfer-input.js';

/** The part of a run that transfers shape: the conversation passed on and the shared context. */
export interface RunContext {
  conversation: SwarmConversation;
  /** Context shared through transfers, by the node that shared it. */
  sharedContext: Record<string, JsonObject>;
}

/** A finished turn that ends with a transfer. */
export interface TurnTransfer {
  from: string;
  to: string;
  handoff: Handoff;
  /** The validated arguments the model passed. */
  input: unknown;
  /** The messages `from` added in its turn (ending with the handoff call and its result). */
  newItems: readonly Message[];
  /** What the input filter sees as `context`. */
  context: HandoffContext;
}

/** The run after a transfer, or why the transfer failed. */
export type AppliedTurn =
  | { failure: string }
  | {
      failure: undefined;
      run: RunContext;
      note: Message;
      message: string | undefined;
      historyBefore: number;
      historyAfter: number;
    };

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Applies one transfer to the run, without changing it: adds the shared context the transfer
 * carries, shapes the conversation with the handoff's input filter (filters are pure by contract)
 * and appends the note for the next agent. The swarm uses it live and, on resume, to replay the
 * committed turns from the task, so both give the same conversation.
 */
export async function applyTurn(
  run: RunContext,
  transfer: TurnTransfer,
  settings: HandoffRunSettings,
): Promise<AppliedTurn> {
  const { from, to } = transfer;
  let payload: ReturnType<typeof transferPayload>;
  try {
    payload = transferPayload(transfer.input);
  } catch (error) {
    return { failure: `The transfer from ${from} to ${to} failed: ${describe(error)}` };
  }
  const data: HandoffInputData = {
    inputHistory: run.conversation.inputHistory,
    preHandoffItems: run.conversation.items,
    newItems: transfer.newItems,
    context: transfer.context,
  };
  const filter = resolveInputFilter(transfer.handoff, settings);
  let shaped: HandoffInputData;
  try {
    shaped = filter ? await filter(data) : data;
    if (
      !Array.isArray(shaped?.inputHistory) ||
      !Array.isArray(shaped.preHandoffItems) ||
      !Array.isArray(shaped.newItems)
    ) {
      throw new TypeError('it must return { inputHistory, preHandoffItems, newItems } arrays');
    }
    // A filter of the user's may return any messages: checked here, as the members get them unchecked.
    if (filter && filter !== nestHandoffHistory) {
      checkMessages(shaped.inputHistory, 'inputHistory');
      checkMessages(shaped.preHandoffItems, 'preHandoffItems');
      checkMessages(shaped.newItems, 'newItems');
    }
  } catch (error) {
    return { failure: `The input filter of ${transfer.handoff.toolName} failed: ${describe(error)}` };
  }
  const sharedContext = payload.context
    ? { ...run.sharedContext, [from]: { ...run.sharedContext[from], ...structuredClone(payload.context) } }
    : run.sharedContext;
  const note = handoffNote({ from, to, message: payload.message, sharedContext });
  const conversation = {
    inputHistory: [...shaped.inputHistory],
    items: [...shaped.preHandoffItems, ...shaped.newItems, note],
  };
  const size = (d: HandoffInputData): number => d.inputHistory.length + d.preHandoffItems.length + d.newItems.length;
  return {
    failure: undefined,
    run: { conversation, sharedContext },
    note,
    message: payload.message,
    historyBefore: size(data),
    historyAfter: size(shaped),
  };
}
