/** The A2A messages a remote call sends, and the lookup of a task whose start is unknown. */
import type { Message, Part, Task, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { ROLE } from '../wire/protocol.js';
import type { CallProgress } from './call-progress.js';
import type { CallRecord } from './call-store.js';
import { classify } from './faults.js';

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = (): void => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });

/** A user message of this call (the first one, or an answer to the task `taskId`). */
export function userMessage(rec: CallRecord, messageId: string, parts: Part[], taskId?: string): Message {
  return {
    messageId,
    contextId: rec.contextId,
    taskId: taskId ?? '',
    role: ROLE.user,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** Finds the task a message whose fate is unknown started (its context is this call's own). */
export async function findTask(p: CallProgress, client: Client, signal: AbortSignal): Promise<boolean> {
  const rec = p.rec;
  let tasks: Task[];
  try {
    const found = await client.listTasks(
      {
        tenant: '',
        contextId: rec.contextId,
        status: 0 as TaskState,
        pageToken: '',
        statusTimestampAfter: undefined,
      },
      { signal },
    );
    tasks = found.tasks;
  } catch (error) {
    if (classify(error).transient) throw error;
    return false; // no ListTasks (an A2A 0.3 agent): the message is sent again
  }
  const task = tasks.find((t) => t.history.some((m) => m.messageId === rec.messageId)) ?? tasks[0];
  if (!task) return false;
  await p.learnTask(task);
  return true;
}
