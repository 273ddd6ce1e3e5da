/**
 * The events of one attempt of one turn, kept so that clients can re-join: each event gets an id
 * (`<turn>.<attempt>.<seq>`) and its SSE frame once, every attached client gets the same frame, and a
 * client that comes back with the id of the last event it saw gets what followed, then the live ones.
 * At most `maxEvents` are kept (the oldest go first).
 */
import type { LoggedEvent, ServerEvent } from '../stream/server-events.js';
import { eventId, sseFrame } from '../stream/sse.js';

/** Receives a turn's events as they come, and its end. */
export interface LogSubscriber {
  event(entry: LoggedEvent): void;
  end(): void;
}

/**
 * A logged event whose SSE frame is made when a client needs it: a turn nobody streams never
 * serializes its events, and the log keeps no frames (a finished turn's log is kept for re-joins; its
 * frames would double its memory for the rare client that comes back).
 */
class Entry implements LoggedEvent {
  readonly id: string;
  readonly seq: number;
  readonly event: ServerEvent;

  constructor(id: string, seq: number, event: ServerEvent) {
    this.id = id;
    this.seq = seq;
    this.event = event;
  }

  get frame(): string {
    return sseFrame(JSON.stringify(this.event), this.event.type, this.id);
  }
}

export class EventLog {
  readonly turn: number;
  readonly attempt: number;
  readonly #max: number;
  readonly #entries: LoggedEvent[] = [];
  /** The seq of `#entries[0]`. */
  #first = 0;
  #next = 0;
  #ended = false;
  readonly #subscribers = new Set<LogSubscriber>();

  constructor(turn: number, attempt: number, maxEvents: number) {
    this.turn = turn;
    this.attempt = attempt;
    this.#max = Math.max(1, maxEvents);
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** The seq of the oldest event still kept. */
  get firstSeq(): number {
    return this.#first;
  }

  /** How many events were appended. */
  get size(): number {
    return this.#next;
  }

  /** Appends an event and sends it to every subscriber. */
  append(event: ServerEvent): LoggedEvent {
    const seq = this.#next++;
    const id = eventId(this.turn, this.attempt, seq);
    const entry = new Entry(id, seq, event);
    this.#entries.push(entry);
    if (this.#entries.length > this.#max) {
      this.#entries.shift();
      this.#first++;
    }
    for (const s of this.#subscribers) {
      try {
        s.event(entry);
      } catch {
        // A client's stream that cannot take an event is dropped; the turn goes on.
        this.#subscribers.delete(s);
      }
    }
    return entry;
  }

  /** Ends the log: subscribers get `end()`; no more events. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const s of this.#subscribers) s.end();
    this.#subscribers.clear();
  }

  /** The kept events with seq >= `from`. */
  since(from: number): LoggedEvent[] {
    const start = Math.max(0, from - this.#first);
    return this.#entries.slice(start);
  }

  /**
   * Sends `subscriber` the kept events from seq `from` on, then the live ones; an ended log ends it
   * at once after the replay. Returns the function that detaches it.
   */
  subscribe(from: number, subscriber: LogSubscriber): () => void {
    for (const entry of this.since(from)) subscriber.event(entry);
    if (this.#ended) {
      subscriber.end();
      return () => undefined;
    }
    this.#subscribers.add(subscriber);
    return () => {
      this.#subscribers.delete(subscriber);
    };
  }

  /** How many clients are attached. */
  get subscriberCount(): number {
    return this.#subscribers.size;
  }
}
