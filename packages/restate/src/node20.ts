/**
 * The Restate SDK calls `Promise.withResolvers` (ES2024, Node 22); skein supports Node 20, which lacks
 * it. Importing @skein/restate adds the standard method when, and only when, it is missing.
 */
interface WithResolvers {
  withResolvers?: <T>() => {
    promise: Promise<T>;
    resolve: (value: T | PromiseLike<T>) => void;
    reject: (reason?: unknown) => void;
  };
}

const PromiseWith = Promise as unknown as WithResolvers;
if (typeof PromiseWith.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers<T>() {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

export {};
