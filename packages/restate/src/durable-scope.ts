/**
 * Which Restate invocation the current code runs in. The agent loop, a graph's parallel nodes and
 * a swarm's turns all run inside `runInScope`, so the journaled model and tools find their context
 * through AsyncLocalStorage without any change to how the user builds them. Inside a journaled step
 * (`ctx.run`) the scope is marked, so calls nested in it (an agent used as a tool) are part of that
 * one step instead of journaling steps inside a step, which Restate forbids.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { RestatePromise, type Context } from '@restatedev/restate-sdk';
import type { AccumulatedUsage, Interrupt, JsonObject, Message, Prompt, StopReason, ToolMetrics } from '@skein/core';

export interface DurableScope {
  readonly ctx: Context;
  /** Set in a workflow run whose graph nodes run as Restate calls (see `spread-nodes.ts`). */
  readonly callNode?: NodeCaller;
  /** True inside a journaled step: nested model and tool calls run plainly. */
  readonly inStep: boolean;
  /** Awaits on the journal, in batches (see `StepBatcher`). */
  readonly waits: StepBatcher;
}

/**
 * Awaits journaled steps in batches. The Restate SDK (1.17) drives progress from each `await` on one
 * of its promises, and two such awaits pending at once from independent code (parallel graph nodes,
 * concurrent tools) make it fail the attempt ("awaitNext already pending"); a step's action also
 * runs only while its promise is being awaited. So every step issued in the same turn of the event
 * loop joins one batch, awaited with `RestatePromise.allSettled`: concurrent tool calls and parallel
 * nodes run at the same time, and the batches (hence the journal's order) depend only on the code,
 * not on how fast each step was.
 */
class StepBatcher {
  #queue: { step: RestatePromise<unknown>; resolve: (value: unknown) => void; reject: (reason: unknown) => void }[] =
    [];
  #pumping = false;

  wait<T>(step: RestatePromise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ step, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#pumping) void this.#pump();
    });
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      await nextTurn();
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0);
        const settled = await RestatePromise.allSettled(batch.map((b) => b.step));
        settled.forEach((outcome, i) => {
          const waiter = batch[i];
          if (!waiter) return;
          if (outcome.status === 'fulfilled') waiter.resolve(outcome.value);
          else waiter.reject(outcome.reason);
        });
        await nextTurn(); // the continuations issue their next steps, which form the next batch
      }
    } finally {
      this.#pumping = false;
    }
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const storage = new AsyncLocalStorage<DurableScope>();

/** Runs one node agent elsewhere: a journaled Restate call answered by the workflow's `node` handler. */
export type NodeCaller = (request: NodeRequest) => RestatePromise<NodeReply>;

/** What a node call carries: where the agent is in the tree and everything it starts from. */
export interface NodeRequest {
  /** Node ids from the top orchestrator down to the agent, e.g. `['billing']` or `['desk', 'refund']`. */
  path: string[];
  prompt: Prompt;
  messages: Message[];
  state: JsonObject;
  /** The agent's turn waiting for answers (`interruptStateOf`), when it has one. */
  interruptState?: JsonObject;
}

/** What a node call answers: the agent after the invocation, and the invocation's result. */
export interface NodeReply {
  messages: Message[];
  state: JsonObject;
  interruptState?: JsonObject;
  result: {
    stopReason: StopReason;
    message: Message;
    interrupts: Interrupt[];
    metrics: {
      cycleCount: number;
      modelCallCount: number;
      modelLatencyMs: number;
      durationMs: number;
      interruptCount: number;
      usage: AccumulatedUsage;
      toolMetrics: Record<string, ToolMetrics>;
    };
  };
}

/** Runs `fn` with `ctx` as the journal of every model and tool call it makes. */
export function runInScope<T>(ctx: Context, fn: () => Promise<T>, callNode?: NodeCaller): Promise<T> {
  return storage.run({ ctx, inStep: false, waits: new StepBatcher(), ...(callNode ? { callNode } : {}) }, fn);
}

/** Awaits a Restate promise (a call) in the scope's batches, so it may run alongside other steps. */
export function awaitInScope<T>(scope: DurableScope, promise: RestatePromise<T>): Promise<T> {
  return scope.waits.wait(promise);
}

/** The scope to record a step in, or `undefined` outside Restate or inside a step. */
export function activeJournal(): DurableScope | undefined {
  const scope = storage.getStore();
  return scope && !scope.inStep ? scope : undefined;
}

/** Runs `action` as one journaled step named `name`: recorded once, replayed after a crash. */
export function journaled<T>(scope: DurableScope, name: string, action: () => Promise<T>): Promise<T> {
  const step = scope.ctx.run(name, () => storage.run({ ...scope, inStep: true }, action));
  return scope.waits.wait(step);
}
