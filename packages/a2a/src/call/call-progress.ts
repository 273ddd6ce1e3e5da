/**
 * Where one call stands, kept in its record and stored at each change: the task it learned about,
 * the stop the task reached (answer, question, failure), and a stream of task events read to the
 * task's next stop (a stream that ends before it is a cut, retried as a transient fault).
 */
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { isTerminal, isWaiting, STATE, STATE_NAME } from '../wire/protocol.js';
import type { CallRecord, CallStore } from './call-store.js';
import { StreamCutError } from './faults.js';
import { answerText, messageText, questionOfTask, usageOf } from './task-reading.js';

type TaskView = Pick<Task, 'artifacts' | 'status' | 'metadata'>;

/** What a streamed task says while it works: a status message, or an artifact's text (its new chunk when appended). */
export type ReportUpdate = (update: { kind: 'status' | 'artifact'; text: string }) => void;

export class CallProgress {
  readonly key: string;
  readonly rec: CallRecord;
  readonly #store: CallStore;
  readonly #report: ReportUpdate | undefined;

  constructor(key: string, rec: CallRecord, store: CallStore, report?: ReportUpdate) {
    this.key = key;
    this.rec = rec;
    this.#store = store;
    this.#report = report;
  }

  put(): Promise<void> {
    return this.#store.put(this.key, this.rec);
  }

  /** Records the task a message started (once). */
  async learnTask(task: Pick<Task, 'id'>): Promise<void> {
    if (this.rec.taskId === task.id && this.rec.state === 'working') return;
    this.rec.taskId = task.id;
    this.rec.state = 'working';
    await this.put();
  }

  /** Records an answer given as a message (no task). */
  async answered(text: string): Promise<void> {
    Object.assign(this.rec, { state: 'completed', text });
    await this.put();
  }

  /** Records a task that stopped (finished, or asking); false while it is still working. */
  async settle(task: TaskView): Promise<boolean> {
    const rec = this.rec;
    const state = task.status?.state;
    if (isTerminal(state)) {
      const usage = usageOf(task.metadata);
      if (usage) rec.usage = usage;
      if (state === STATE.completed) Object.assign(rec, { state: 'completed', text: answerText(task) });
      else {
        const why = messageText(task.status?.message ?? { parts: [] });
        Object.assign(rec, {
          state: 'failed',
          error: `its task ended ${STATE_NAME[state ?? 0]}${why ? `: ${why}` : ''}`,
        });
      }
    } else if (isWaiting(state)) {
      rec.round += 1;
      rec.question = questionOfTask(task);
      rec.state = 'asking';
      delete rec.answer;
    } else return false;
    await this.put();
    return true;
  }

  /** Reads task events to the task's next stop. */
  async consume(events: AsyncGenerator<StreamResponse>, what: string): Promise<void> {
    const seen: TaskView = {
      artifacts: [],
      status: undefined,
      metadata: undefined,
    };
    for await (const e of events) {
      const p = e.payload;
      if (p?.$case === 'task') {
        await this.learnTask(p.value);
        Object.assign(seen, {
          artifacts: [...p.value.artifacts],
          status: p.value.status,
          metadata: p.value.metadata,
        });
        if (await this.settle(seen)) return;
      } else if (p?.$case === 'artifactUpdate' && p.value.artifact) {
        const a = p.value.artifact;
        if (this.#report) this.#report({ kind: 'artifact', text: messageText(a) });
        const i = seen.artifacts.findIndex((x) => x.artifactId === a.artifactId);
        const existing = seen.artifacts[i];
        if (existing && p.value.append) existing.parts.push(...a.parts);
        else if (existing) seen.artifacts[i] = a;
        else seen.artifacts.push(a);
      } else if (p?.$case === 'statusUpdate') {
        if (!this.rec.taskId) await this.learnTask({ id: p.value.taskId });
        seen.status = p.value.status;
        const said = this.#report && p.value.status?.message ? messageText(p.value.status.message) : '';
        if (said) this.#report?.({ kind: 'status', text: said });
        if (p.value.metadata) seen.metadata = { ...seen.metadata, ...p.value.metadata };
        if (await this.settle(seen)) return;
      } else if (p?.$case === 'message') return this.answered(messageText(p.value));
    }
    throw new StreamCutError(what);
  }
}
