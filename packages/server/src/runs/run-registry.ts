/**
 * One writer per conversation, within this process: the turn running in each conversation, taken
 * synchronously before anything is awaited (two requests in the same tick cannot both start one),
 * requests waiting for it to end, and the events of recently finished turns for clients re-joining.
 * Across processes the store's lock or lease decides (the server's first write of a turn claims it).
 */
import type { EventLog } from './event-log.js';
import type { AbortCause, TurnResult } from './turn-result.js';

/** A turn running in this process. */
export interface RunningTurn {
  readonly conversationId: string;
  readonly kind: string;
  readonly name: string;
  readonly owner: string;
  readonly turn: number;
  readonly startedAt: string;
  /** The AG-UI `runId` it was started with, if any. */
  readonly runId: string | undefined;
  readonly log: EventLog;
  readonly done: Promise<TurnResult>;
  abort(cause: Exclude<AbortCause, undefined>): void;
}

/** A finished turn's events, kept for `replayRetentionMs`. */
export interface FinishedLog {
  readonly owner: string;
  readonly kind: string;
  readonly name: string;
  readonly runId: string | undefined;
  readonly log: EventLog;
}

interface Slot {
  /** `starting`: reserved, being prepared; a RunningTurn once it runs. */
  running: RunningTurn | 'starting' | undefined;
  /** Who reserved it (the running turn's owner once it runs). */
  by: string | undefined;
  finished: FinishedLog | undefined;
  timer: NodeJS.Timeout | undefined;
  waiters: (() => void)[];
}

/** A reserved conversation: start the turn on it, or give it back. */
export interface Reservation {
  start(turn: RunningTurn): void;
  /** Frees the conversation (the turn ended, or never started); `finished` keeps its events for re-joining. */
  release(finished?: FinishedLog): void;
}

export class RunRegistry {
  readonly #slots = new Map<string, Slot>();
  readonly #retentionMs: number;
  #running = 0;

  constructor(retentionMs: number) {
    this.#retentionMs = retentionMs;
  }

  /** Turns running (or being prepared) in this process. */
  get runningCount(): number {
    return this.#running;
  }

  /** Reserves `conversationId` for principal `by`, or `undefined` when a turn is running or starting there. */
  reserve(conversationId: string, by: string): Reservation | undefined {
    const slot = this.#slot(conversationId);
    if (slot.running !== undefined) return undefined;
    slot.running = 'starting';
    slot.by = by;
    this.#running++;
    let released = false;
    return {
      start: (turn) => {
        if (!released) slot.running = turn;
      },
      release: (finished) => {
        if (released) return;
        released = true;
        slot.running = undefined;
        this.#running--;
        if (finished) this.#keep(conversationId, slot, finished);
        const waiter = slot.waiters.shift();
        waiter?.();
        this.#dropIfIdle(conversationId, slot);
      },
    };
  }

  /** The turn running in `conversationId` (not one still being prepared). */
  running(conversationId: string): RunningTurn | undefined {
    const running = this.#slots.get(conversationId)?.running;
    return typeof running === 'object' ? running : undefined;
  }

  /** Who holds `conversationId`: the running turn's owner, or the principal whose request is preparing one. */
  holder(conversationId: string): string | undefined {
    const slot = this.#slots.get(conversationId);
    if (!slot || slot.running === undefined) return undefined;
    return typeof slot.running === 'object' ? slot.running.owner : slot.by;
  }

  /** True while a turn runs or is being prepared in `conversationId`. */
  busy(conversationId: string): boolean {
    return this.#slots.get(conversationId)?.running !== undefined;
  }

  /** The last finished turn's events, while they are kept. */
  finished(conversationId: string): FinishedLog | undefined {
    return this.#slots.get(conversationId)?.finished;
  }

  /** Every running turn. */
  all(): RunningTurn[] {
    const out: RunningTurn[] = [];
    for (const slot of this.#slots.values()) if (typeof slot.running === 'object') out.push(slot.running);
    return out;
  }

  /** Resolves `true` when `conversationId` is free again, `false` after `ms` (or at once when free). */
  waitFree(conversationId: string, ms: number): Promise<boolean> {
    const slot = this.#slots.get(conversationId);
    if (!slot || slot.running === undefined) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = slot.waiters.indexOf(wake);
        if (at >= 0) slot.waiters.splice(at, 1);
        resolve(false);
      }, ms);
      slot.waiters.push(wake);
    });
  }

  /** Forgets a conversation's kept events (it was deleted). */
  forget(conversationId: string): void {
    const slot = this.#slots.get(conversationId);
    if (!slot) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.finished = undefined;
    slot.timer = undefined;
    this.#dropIfIdle(conversationId, slot);
  }

  /** Drops every kept log (the server stops). */
  clear(): void {
    for (const [id, slot] of this.#slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = undefined;
      slot.finished = undefined;
      this.#dropIfIdle(id, slot);
    }
  }

  #slot(conversationId: string): Slot {
    let slot = this.#slots.get(conversationId);
    if (!slot) {
      slot = { running: undefined, by: undefined, finished: undefined, timer: undefined, waiters: [] };
      this.#slots.set(conversationId, slot);
    }
    return slot;
  }

  #keep(conversationId: string, slot: Slot, finished: FinishedLog): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.finished = finished;
    slot.timer = setTimeout(() => {
      slot.finished = undefined;
      slot.timer = undefined;
      this.#dropIfIdle(conversationId, slot);
    }, this.#retentionMs);
    slot.timer.unref();
  }

  #dropIfIdle(conversationId: string, slot: Slot): void {
    if (slot.running === undefined && slot.finished === undefined && slot.waiters.length === 0)
      this.#slots.delete(conversationId);
  }
}
