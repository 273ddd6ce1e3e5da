/** Models and graphs for the scheduling tests: latency profiles, seeded randomness, a store that dies. */
import {
  Agent,
  InMemorySessionRepository,
  type JsonObject,
  type Model,
  type ModelStreamEvent,
  type NodeTransition,
} from '@skein/core';

/** How a node's model waits: not at all (a cache, a canned answer), one macrotask, or a seeded random time. */
export type Latency = 'zero' | 'tick' | { seed: number; maxMs: number };

/** A small seeded PRNG (mulberry32): the same seed gives the same schedule of waits. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A model answering `text` with the given latency; zero latency has no await between events. */
function fastModel(text: string, latency: Latency, random?: () => number): Model {
  return {
    modelId: 'fast',
    async *stream(): AsyncGenerator<ModelStreamEvent> {
      if (latency === 'tick') await new Promise((resolve) => setImmediate(resolve));
      else if (latency !== 'zero')
        await new Promise((resolve) => setTimeout(resolve, Math.floor((random ?? Math.random)() * latency.maxMs)));
      yield { messageStart: { role: 'assistant' } };
      yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text } } };
      yield { contentBlockStop: { contentBlockIndex: 0 } };
      yield { messageStop: { stopReason: 'end_turn' } };
    },
  };
}

export function fastAgent(name: string, latency: Latency, random?: () => number, text = name): Agent {
  return new Agent({ name, model: fastModel(text, latency, random) });
}

/** An in-memory store that dies (every write throws, as after a SIGKILL) at the first write matching `dieAt`. */
export class DyingRepository extends InMemorySessionRepository {
  dieAt:
    | ((write: { kind: 'node' | 'transition' | 'state' | 'message'; nodeId?: string; state?: JsonObject }) => boolean)
    | undefined;
  dead = false;

  #check(write: { kind: 'node' | 'transition' | 'state' | 'message'; nodeId?: string; state?: JsonObject }): void {
    if (!this.dead && this.dieAt?.(write)) this.dead = true;
    if (this.dead) throw new Error('the process died');
  }

  override async putNodeEntry(
    sessionId: string,
    multiAgentId: string,
    nodeId: string,
    entry: JsonObject,
  ): Promise<void> {
    this.#check({ kind: 'node', nodeId });
    return super.putNodeEntry(sessionId, multiAgentId, nodeId, entry);
  }

  override async appendTransitions(
    sessionId: string,
    multiAgentId: string,
    transitions: readonly NodeTransition[],
  ): Promise<void> {
    this.#check({ kind: 'transition' });
    return super.appendTransitions(sessionId, multiAgentId, transitions);
  }

  override async createMessage(...args: Parameters<InMemorySessionRepository['createMessage']>): Promise<void> {
    this.#check({ kind: 'message' });
    return super.createMessage(...args);
  }

  override async updateAgent(...args: Parameters<InMemorySessionRepository['updateAgent']>): Promise<void> {
    this.#check({ kind: 'message' });
    return super.updateAgent(...args);
  }

  override async deleteMessages(...args: Parameters<InMemorySessionRepository['deleteMessages']>): Promise<void> {
    this.#check({ kind: 'message' });
    return super.deleteMessages(...args);
  }

  /** A new process on the same store: writes work again. */
  restart(): void {
    this.dead = false;
    this.dieAt = undefined;
  }

  /** The status in the last state document stored. */
  lastStateStatus: unknown;

  override async updateMultiAgent(...args: Parameters<InMemorySessionRepository['updateMultiAgent']>): Promise<void> {
    this.#check({ kind: 'state', state: args[1].state });
    await super.updateMultiAgent(...args);
    this.lastStateStatus = args[1].state['status'];
  }
}
