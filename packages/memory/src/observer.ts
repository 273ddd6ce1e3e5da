import { Agent, type MemoryStore, NullConversationManager, RunBudget } from '@skein/core';
import type { ResolvedMemoryOptions } from './memory-options.js';
import type { Said } from './record.js';

/** The observer's default instructions. */
export const OBSERVER_PROMPT =
  'You keep a short list of durable facts about one customer for a support team: who they are, their orders, what was promised, what is still open. You get the facts known so far and the messages of a new turn. Answer with the updated list only, one fact per line, each line starting with "- ". Keep facts that still hold, drop those the new messages make wrong, add new ones. No other text.';

type Observe = NonNullable<ResolvedMemoryOptions['observe']>;

/**
 * Observational memory: after a turn, a background model updates the resource's list of facts. It
 * runs outside the turn (the turn never waits for it), one observation at a time per resource, on a
 * budget of its own. Its input is the turn's messages and the facts so far, stated as such: never its
 * own earlier answers as new messages, and never the memory part of a system prompt.
 */
export class Observer {
  readonly #options: Observe;
  readonly #store: MemoryStore;
  readonly #budget: RunBudget;
  readonly #queues = new Map<string, Promise<void>>();
  #spent = false;
  /** Errors of background observations (the turn that scheduled them is long gone). */
  readonly errors: unknown[] = [];

  constructor(options: Observe, store: MemoryStore) {
    this.#options = options;
    this.#store = store;
    this.#budget = new RunBudget(options.budget, { name: 'memory-observer', kind: 'agent' });
  }

  /** Schedules an observation of `said` for `resource`'s facts under `key`; returns at once. */
  schedule(resource: string, key: string, said: readonly Said[]): void {
    if (this.#spent || said.length === 0) return;
    const previous = this.#queues.get(resource) ?? Promise.resolve();
    const next = previous
      .then(() => this.#observe(resource, key, said))
      .catch((error: unknown) => void this.errors.push(error));
    this.#queues.set(resource, next);
    void next.then(() => {
      if (this.#queues.get(resource) === next) this.#queues.delete(resource);
    });
  }

  /** Resolves when every scheduled observation (of `resource`, or of all) has finished. */
  async idle(resource?: string): Promise<void> {
    if (resource !== undefined) await this.#queues.get(resource);
    else await Promise.all([...this.#queues.values()]);
  }

  /** The facts stored under `key`. */
  async facts(resource: string, key: string): Promise<string[]> {
    const doc = await this.#store.readDocument(resource, key);
    const facts = doc?.value['facts'];
    return Array.isArray(facts) ? facts.filter((f): f is string => typeof f === 'string') : [];
  }

  async #observe(resource: string, key: string, said: readonly Said[]): Promise<void> {
    const doc = await this.#store.readDocument(resource, key);
    const known = await this.facts(resource, key);
    const prompt = [
      'Facts known so far:',
      known.length > 0 ? known.map((f) => `- ${f}`).join('\n') : '(none)',
      '',
      'Messages of the new turn:',
      ...said.map((s) => `${s.role}: ${s.text}`),
    ].join('\n');
    const agent = new Agent({
      name: 'memory-observer',
      model: this.#options.model,
      systemPrompt: this.#options.instructions ?? OBSERVER_PROMPT,
      conversationManager: new NullConversationManager(),
    });
    const result = await agent.invoke(prompt, { budget: this.#budget });
    if (result.stopReason === 'budget_exceeded') {
      this.#spent = true;
      return;
    }
    const facts = String(result)
      .split('\n')
      .map((line) => /^\s*[-*]\s+(.*\S)\s*$/.exec(line)?.[1])
      .filter((f): f is string => f !== undefined)
      .slice(-this.#options.maxFacts);
    // Written only if nobody changed the facts meanwhile (another process); else this observation is dropped.
    await this.#store.writeDocument(resource, key, { facts }, doc?.version ?? 0);
  }

  /** True once the budget is spent: no more observations. */
  get spent(): boolean {
    return this.#spent;
  }
}
