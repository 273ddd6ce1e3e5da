/**
 * Listeners by event type (`agent.on('textDelta', fn)`), in a map of arrays. Nothing is allocated until
 * the first listener is added, and `emit` is a no-op for types nobody listens to, so objects nobody
 * listens to do no event work. A listener that throws does not break the run: its error goes to the
 * `error` listeners, or, when there are none, to one process warning per listener.
 */
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

interface Entry {
  readonly fn: AnyListener;
  readonly once: boolean;
}

let dispatched = 0;
/** How many events reached at least one listener, process-wide (tests check that unheard events cost nothing). */
export function listenerDispatchCount(): number {
  return dispatched;
}

/**
 * The listener registry of one agent or orchestrator. Each type's listeners are an array replaced,
 * never changed, when one is added or removed, so an `emit` calls the listeners there were when it
 * began, in the order they were added; a `once` listener is removed before it is called.
 */
export class Listeners<E extends TypedEvent> {
  #byType: Map<string, readonly Entry[]> | undefined;
  #wrapped: WeakMap<AnyListener, AnyListener> | undefined;
  readonly #warned = new WeakSet<AnyListener>();

  on<T extends ListenedType<E>>(type: T, listener: Listener<E, T>, once = false): void {
    const raw = listener as AnyListener;
    this.#wrapped ??= new WeakMap();
    const safe = this.#wrapped.get(raw) ?? this.#guard(raw);
    this.#wrapped.set(raw, safe);
    const byType = (this.#byType ??= new Map());
    byType.set(type, [...(byType.get(type) ?? []), { fn: safe, once }]);
  }

  off<T extends ListenedType<E>>(type: T, listener: Listener<E, T>): void {
    const safe = this.#wrapped?.get(listener as AnyListener);
    const list = this.#byType?.get(type);
    if (safe && list)
      this.#set(
        type,
        list.filter((entry) => entry.fn !== safe),
      );
  }

  /** True when someone listens to `type` (or to anything, without a type). */
  has(type?: string): boolean {
    const byType = this.#byType;
    if (!byType) return false;
    return type === undefined ? byType.size > 0 : byType.has(type);
  }

  emit(event: E): void {
    if (this.#byType?.has(event.type)) this.#dispatch(event);
  }

  #dispatch(event: TypedEvent): void {
    const list = this.#byType?.get(event.type);
    if (!list) return;
    dispatched++;
    if (list.some((entry) => entry.once))
      this.#set(
        event.type,
        list.filter((entry) => !entry.once),
      );
    for (const entry of list) entry.fn(event);
  }

  /** Keeps `list` as `type`'s listeners; an empty one removes the type. */
  #set(type: string, list: readonly Entry[]): void {
    if (list.length > 0) this.#byType?.set(type, list);
    else this.#byType?.delete(type);
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
    if (event.type !== 'error' && this.#byType?.has('error')) {
      const failure: ListenerErrorEvent = { type: 'error', error, event };
      this.#dispatch(failure);
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
