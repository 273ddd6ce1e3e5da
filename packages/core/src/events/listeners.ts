/**
 * Listeners by event type (`agent.on('textDelta', fn)`), on eventemitter3. Nothing is allocated until
 * the first listener is added, and `emit` is a no-op for types nobody listens to, so objects nobody
 * listens to do no event work. A listener that throws does not break the run: its error goes to the
 * `error` listeners, or, when there are none, to one process warning per listener.
 */
import { EventEmitter } from 'eventemitter3';

/** An event with a discriminating `type`. */
export interface TypedEvent {
  readonly type: string;
}

/** The listener error event (`on('error', ...)`). */
export interface ListenerErrorEvent {
  type: 'error';
  error: unknown;
  /** The event whose listener threw. */
  event: TypedEvent;
}

/** The events a source emits, plus `error`. */
export type ListenedEvent<E extends TypedEvent> = E | ListenerErrorEvent;

/** The types a source's listeners can subscribe to: its events' types and `error`. */
export type ListenedType<E extends TypedEvent> = E['type'] | 'error';

/** The listener of events of `type`. */
export type Listener<E extends TypedEvent, T extends ListenedType<E>> = (
  event: Extract<ListenedEvent<E>, { type: T }>,
) => void;

type AnyListener = (event: TypedEvent) => void;

let dispatched = 0;
/** How many events reached at least one listener, process-wide (tests check that unheard events cost nothing). */
export function listenerDispatchCount(): number {
  return dispatched;
}

/** The listener registry of one agent or orchestrator. */
export class Listeners<E extends TypedEvent> {
  #emitter: EventEmitter | undefined;
  #wrapped: WeakMap<AnyListener, AnyListener> | undefined;
  readonly #warned = new WeakSet<AnyListener>();

  on<T extends ListenedType<E>>(type: T, listener: Listener<E, T>, once = false): void {
    const raw = listener as AnyListener;
    this.#wrapped ??= new WeakMap();
    const safe = this.#wrapped.get(raw) ?? this.#guard(raw);
    this.#wrapped.set(raw, safe);
    this.#emitter ??= new EventEmitter();
    if (once) this.#emitter.once(type, safe);
    else this.#emitter.on(type, safe);
  }

  off<T extends ListenedType<E>>(type: T, listener: Listener<E, T>): void {
    const safe = this.#wrapped?.get(listener as AnyListener);
    if (safe) this.#emitter?.off(type, safe);
  }

  /** True when someone listens to `type` (or to anything, without a type). */
  has(type?: string): boolean {
    const emitter = this.#emitter;
    if (!emitter) return false;
    return type === undefined ? emitter.eventNames().length > 0 : emitter.listenerCount(type) > 0;
  }

  emit(event: E): void {
    const emitter = this.#emitter;
    if (!emitter || emitter.listenerCount(event.type) === 0) return;
    dispatched++;
    emitter.emit(event.type, event);
  }

  #guard(listener: AnyListener): AnyListener {
    return (event) => {
      try {
        listener(event);
      } catch (error) {
        this.#report(listener, error, event);
      }
    };
  }

  #report(listener: AnyListener, error: unknown, event: TypedEvent): void {
    if (event.type !== 'error' && this.#emitter && this.#emitter.listenerCount('error') > 0) {
      this.#emitter.emit('error', { type: 'error', error, event } satisfies ListenerErrorEvent);
      return;
    }
    if (this.#warned.has(listener)) return;
    this.#warned.add(listener);
    const message = error instanceof Error ? error.message : String(error);
    process.emitWarning(
      `A listener of "${event.type}" threw (the run goes on; further errors of this listener are not reported): ${message}`,
      { code: 'SKEIN_LISTENER_ERROR' },
    );
  }
}
