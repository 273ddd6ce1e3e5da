/**
 * A model call as one journaled step: the whole stream is collected inside `ctx.run` and recorded;
 * after a crash the recorded events are replayed instead of calling the model again. Transient
 * faults (throttling, 5xx, a cut stream) are thrown as retryable so Restate retries the step;
 * permanent ones are recorded as the step's outcome and rethrown as the same skein error class.
 */
import { TerminalError } from '@restatedev/restate-sdk';
import {
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
  type Model,
  type ModelRequest,
  type ModelStreamEvent,
  errorMessage,
} from '@skein/core';
import { activeJournal, journaled, type DurableScope } from './durable-scope.js';

type StepOutcome = { events: ModelStreamEvent[] } | { error: { code: string; message: string } };

const journaledModels = new WeakSet<Model>();

/** Makes `model` journal its calls whenever it runs inside a Restate scope (idempotent; outside one it is unchanged). */
export function journalModel(model: Model): void {
  if (journaledModels.has(model)) return;
  journaledModels.add(model);
  const plain = model.stream.bind(model);
  model.stream = (request: ModelRequest): AsyncIterable<ModelStreamEvent> => {
    const scope = activeJournal();
    return scope ? replay(scope, model.modelId, request, plain) : plain(request);
  };
}

async function* replay(
  scope: DurableScope,
  modelId: string,
  request: ModelRequest,
  plain: (request: ModelRequest) => AsyncIterable<ModelStreamEvent>,
): AsyncGenerator<ModelStreamEvent> {
  const outcome = await journaled<StepOutcome>(scope, `model ${modelId}`, async () => {
    const events: ModelStreamEvent[] = [];
    try {
      for await (const event of plain(request)) events.push(event);
      return { events };
    } catch (error) {
      if (error instanceof ModelThrottledError || error instanceof ModelTransientError) throw error; // Restate retries the step
      if (error instanceof ModelError) return { error: { code: error.code, message: error.message } };
      throw new TerminalError(errorMessage(error));
    }
  });
  if ('error' in outcome) {
    throw outcome.error.code === 'context_window_overflow'
      ? new ContextWindowOverflowError(outcome.error.message)
      : new ModelError(outcome.error.message, {}, outcome.error.code);
  }
  yield* outcome.events;
}
