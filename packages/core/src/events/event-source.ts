import { Listeners, type ListenedType, type Listener, type TypedEvent } from './listeners.js';

/**
 * What Agent, Graph and Swarm share as event sources: `on`, `once` and `off` over one registry made on
 * the first listener, so that a source nobody listens to does no event work.
 */
export abstract class EventSource<E extends TypedEvent> {
  #listeners: Listeners<E> | undefined;

  /**
   * Calls `listener` with every event of `type` this source emits, whether the caller uses `invoke` or
   * `stream`. A listener that throws does not stop the run; its error goes to the `error` listeners,
   * else to a process warning.
   * @example agent.on('toolStart', (e) => console.log('tool', e.toolUse.name));
   */
  on<T extends ListenedType<E>>(type: T, listener: Listener<E, T>): this {
    (this.#listeners ??= new Listeners()).on(type, listener);
    return this;
  }

  /** Like `on`, for the next event of `type` only. */
  once<T extends ListenedType<E>>(type: T, listener: Listener<E, T>): this {
    (this.#listeners ??= new Listeners()).on(type, listener, true);
    return this;
  }

  /** Removes a listener added with `on` or `once`. */
  off<T extends ListenedType<E>>(type: T, listener: Listener<E, T>): this {
    this.#listeners?.off(type, listener);
    return this;
  }

  /** The registry, once a listener was added (`undefined` before: nothing to emit to). */
  protected get listeners(): Listeners<E> | undefined {
    return this.#listeners;
  }
}
