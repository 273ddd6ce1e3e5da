import { object, text, type TestTools } from './test-tools.js';

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}

/** Tools that misbehave in time: a slow one that notices cancellation, one that hangs, one that kills its process. */
export function registerFaultTools(tools: TestTools): void {
  tools.register(
    'slow',
    'Waits `ms` milliseconds unless cancelled.',
    object({ ms: { type: 'number' } }, ['ms']),
    async ({ ms }, ctx) => {
      const finished = await sleep(Number(ms), ctx.mcpReq.signal);
      if (!finished) tools.stats.cancelled++;
      return text(finished ? `waited ${String(ms)} ms` : 'cancelled');
    },
  );
  tools.register('hang', 'Never answers.', object({}), () => new Promise<never>(() => {}));
  tools.register('crash', 'Kills the server process mid-call.', object({}), () => {
    process.stderr.write('test server: crashing on purpose\n');
    setTimeout(() => process.exit(3), 5);
    return new Promise<never>(() => {});
  });
}
