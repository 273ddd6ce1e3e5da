/**
 * Small facts of the A2A protocol (v1.0) as plain values: task states and roles by number (the SDK's
 * enums, without loading the SDK at import time), and builders of messages and status events.
 */
import type { Message, Part, Role, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';

/** Task states (`TaskState` of `@a2a-js/sdk`). */
export const STATE = {
  submitted: 1 as TaskState,
  working: 2 as TaskState,
  completed: 3 as TaskState,
  failed: 4 as TaskState,
  canceled: 5 as TaskState,
  inputRequired: 6 as TaskState,
  rejected: 7 as TaskState,
  authRequired: 8 as TaskState,
} as const;

/** Roles (`Role` of `@a2a-js/sdk`). */
export const ROLE = { user: 1 as Role, agent: 2 as Role } as const;

/** The protocol's name of each state, for messages and stored documents. */
export const STATE_NAME: Readonly<Record<number, string>> = {
  0: 'unspecified',
  1: 'submitted',
  2: 'working',
  3: 'completed',
  4: 'failed',
  5: 'canceled',
  6: 'input-required',
  7: 'rejected',
  8: 'auth-required',
};

/** The state of a stored name (unknown names read as `failed`). */
export function stateOf(name: string): TaskState {
  for (const [n, s] of Object.entries(STATE_NAME)) if (s === name) return Number(n) as TaskState;
  return STATE.failed;
}

/** True for completed, failed, canceled and rejected: nothing more happens to the task. */
export function isTerminal(state: TaskState | undefined): boolean {
  return state === STATE.completed || state === STATE.failed || state === STATE.canceled || state === STATE.rejected;
}

/** True when the task waits for the caller (input-required, auth-required). */
export function isWaiting(state: TaskState | undefined): boolean {
  return state === STATE.inputRequired || state === STATE.authRequired;
}

/** A message with every field the SDK's types ask for. */
export function newMessage(role: Role, parts: Part[], ids: { taskId?: string; contextId?: string } = {}): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A status update of a task. */
export function statusEvent(
  taskId: string,
  contextId: string,
  state: TaskState,
  message?: Message,
  metadata?: Record<string, unknown>,
): TaskStatusUpdateEvent {
  return {
    taskId,
    contextId,
    status: { state, message, timestamp: new Date().toISOString() },
    metadata,
  };
}
