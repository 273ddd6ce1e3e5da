/**
 * The hook registry: callbacks per event class. Events whose class sets `reverseCallbacks` (the
 * After* events) run their callbacks in reverse registration order, so that paired Before/After
 * callbacks nest like middleware. Async callbacks are awaited one by one.
 */

/** Any hook event class: constructed with its fields, optionally declaring reverse order. */
export type HookEventClass<E extends object> = (abstract new (
  ...args: never[]
) => E) & { readonly reverseCallbacks?: boolean };

/** A callback for one event. */
export type HookCallback<E> = (event: E) => void | Promise<void>;

/** Something that registers several callbacks at once (a logger, a session manager...). */
export interface HookProvider {
  registerHooks(registry: HookRegistry): void;
}

type AnyCallback = HookCallback<object>;

/** Holds callbacks by event class and invokes them in the documented order. The map is made on the first registration. */
export class HookRegistry {
  #callbacks: Map<HookEventClass<object>, AnyCallback[]> | undefined;

  /** Registers `callback` for `eventClass`; returns a function that removes it again. */
  addCallback<E extends object>(eventClass: HookEventClass<E>, callback: HookCallback<E>): () => void {
    const callbacks = (this.#callbacks ??= new Map());
    const list = callbacks.get(eventClass) ?? [];
    const entry = callback as AnyCallback;
    list.push(entry);
    callbacks.set(eventClass, list);
    return () => {
      const current = callbacks.get(eventClass);
      if (!current) return;
      const at = current.indexOf(entry);
      if (at >= 0) current.splice(at, 1);
      if (current.length === 0) callbacks.delete(eventClass);
    };
  }

  /** Lets a provider register its callbacks; returns a function that removes all of them. */
  addHook(provider: HookProvider): () => void {
    const removers: (() => void)[] = [];
    provider.registerHooks(new ScopedHookRegistry(this, removers));
    return () => {
      for (const remove of removers) remove();
    };
  }

  /** True when at least one callback listens to `eventClass` (lets callers skip building the event). */
  has(eventClass: HookEventClass<object>): boolean {
    return this.#callbacks?.has(eventClass) ?? false;
  }

  /** Runs the callbacks of the event's class in order, awaiting each; returns the (possibly modified) event. */
  async invoke<E extends object>(event: E): Promise<E> {
    const cls = event.constructor as HookEventClass<object>;
    const list = this.#callbacks?.get(cls);
    if (!list) return event;
    const ordered = cls.reverseCallbacks ? [...list].reverse() : [...list];
    for (const callback of ordered) {
      const returned = callback(event);
      if (returned !== undefined) await returned;
    }
    return event;
  }
}

/**
 * What a provider registers through: callbacks go to the parent registry, and their removers are
 * collected so `addHook`'s cleanup removes them all. (A subclass rather than `Object.create(parent)`:
 * an object used as a prototype gets a map of its own in V8, which every agent would pay for.)
 */
class ScopedHookRegistry extends HookRegistry {
  readonly #parent: HookRegistry;
  readonly #removers: (() => void)[];

  constructor(parent: HookRegistry, removers: (() => void)[]) {
    super();
    this.#parent = parent;
    this.#removers = removers;
  }

  override addCallback<E extends object>(eventClass: HookEventClass<E>, callback: HookCallback<E>): () => void {
    const remove = this.#parent.addCallback(eventClass, callback);
    this.#removers.push(remove);
    return remove;
  }

  override has(eventClass: HookEventClass<object>): boolean {
    return this.#parent.has(eventClass);
  }

  override invoke<E extends object>(event: E): Promise<E> {
    return this.#parent.invoke(event);
  }
}
