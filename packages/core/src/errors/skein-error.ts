const KINDS = Symbol.for('skein.error.kinds');

/** Options every skein error takes: the underlying cause. */
export interface SkeinErrorOptions {
  cause?: unknown;
}

/**
 * The root of every error skein throws. `code` is a stable string to branch on; `is()` works across
 * copies of the package (two installed versions, or realms), unlike `instanceof`.
 */
export class SkeinError extends Error {
  /** A stable machine-readable code, e.g. `model_throttled`. */
  readonly code: string;

  constructor(message: string, options: SkeinErrorOptions = {}, code = 'skein_error') {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
    const kinds: string[] = [];
    for (
      let proto: unknown = new.target;
      typeof proto === 'function' && proto !== Error;
      proto = Object.getPrototypeOf(proto)
    ) {
      kinds.push((proto as { name: string }).name);
    }
    Object.defineProperty(this, KINDS, { value: kinds, enumerable: false });
  }

  /** True when `value` is an instance of this error class, from any copy of skein. */
  static is<T extends SkeinError>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    if (typeof value !== 'object' || value === null) return false;
    const kinds = (value as { [KINDS]?: unknown })[KINDS];
    return Array.isArray(kinds) && kinds.includes(this.name);
  }
}
