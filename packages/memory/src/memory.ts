import {
  AfterInvocationEvent,
  type AgentHandle,
  type AgentMemory,
  type AgentTool,
  BeforeInvocationEvent,
  BeforeModelCallEvent,
  checkMemoryId,
  type HookRegistry,
  type MemoryStore,
  type MemoryTarget,
  MemoryError,
  type Message,
  MessageAddedEvent,
  messageText,
  tool,
} from '@skein/core';
import { z } from 'zod';
import { Embedder } from './embedder.js';
import { type MemoryOptions, type ResolvedMemoryOptions, resolveMemoryOptions } from './memory-options.js';
import { type AgentTurn, MemoryTurn, type Prepared, type Resolved, resolveTarget } from './memory-turn.js';
import { Observer } from './observer.js';
import { type Capped, capped, type Recalled, recall } from './recall.js';
import { RecallCache } from './recall-cache.js';
import { type Said, SeqClock, recordTurn, saidIn } from './record.js';
import { renderMemory, withMemory } from './render.js';
import { WorkingMemory, patchOf, toolDescription } from './working-memory.js';

/** A name as a document-key part: characters outside the safe set become `_`. */
const keyPart = (name: string): string => name.replace(/[^A-Za-z0-9_.@=+-]/g, '_').replace(/\.\.+/g, '_') || 'agent';

/**
 * Long-term memory for agents, graphs and swarms: per resource (a customer), a working-memory record
 * the model keeps by merge patch, recall of the resource's earlier conversations, and (optionally)
 * facts a background model observes. Read and written only under the resource each invocation names.
 * @example
 * const memory = new Memory({ store: new SqliteMemoryStore({ path: 'desk.db' }), workingMemory: { schema } });
 * const agent = new Agent({ model, memory });
 * await agent.invoke('I was charged twice for order 42', { memory: { resource: 'customer-7', thread: 'c-1' } });
 */
export class Memory implements AgentMemory {
  /** Where memory is kept. */
  readonly store: MemoryStore;
  /** The tools agents get with this memory (the working-memory update tool, when configured). */
  readonly tools: readonly AgentTool[];
  readonly #options: ResolvedMemoryOptions;
  readonly #working: WorkingMemory | undefined;
  readonly #embedder: Embedder | undefined;
  readonly #observer: Observer | undefined;
  readonly #turns = new WeakMap<AgentHandle, AgentTurn>();
  readonly #clock = new SeqClock();
  readonly #cache: RecallCache | undefined;

  constructor(options: MemoryOptions = {}) {
    this.#options = resolveMemoryOptions(options);
    this.store = this.#options.store;
    const wm = this.#options.workingMemory;
    this.#working = wm && new WorkingMemory(this.store, wm.schema);
    this.#embedder = this.#options.recall?.embeddings && new Embedder(this.#options.recall.embeddings);
    this.#observer = this.#options.observe && new Observer(this.#options.observe, this.store);
    const lexical = this.#options.recall && this.#options.recall.mode !== 'vector';
    this.#cache = lexical ? new RecallCache(this.store, this.#options.recall?.cacheMessages ?? 0) : undefined;
    this.tools = wm ? [this.#updateTool(wm.toolName, wm.schema)] : [];
  }

  /** Registers the hooks that read memory into each model call and record each turn. */
  registerHooks(registry: HookRegistry): void {
    registry.addCallback(BeforeInvocationEvent, (e) => {
      this.#turns.set(e.agent, { added: [], target: undefined, prepared: undefined, working: undefined });
    });
    registry.addCallback(MessageAddedEvent, (e) => void this.#turns.get(e.agent)?.added.push(e.message));
    registry.addCallback(BeforeModelCallEvent, (e) => this.#beforeModelCall(e));
    registry.addCallback(AfterInvocationEvent, (e) => this.#afterInvocation(e));
  }

  /** Opens one turn of an orchestrator: its nodes read under the returned target; `closeTurn` records it. */
  openTurn(target: MemoryTarget, task: string): MemoryTarget {
    if (target instanceof MemoryTurn) return target;
    return new MemoryTurn(resolveTarget(target), task);
  }

  /** Records an orchestrator's turn: its task and its answer. */
  async closeTurn(turn: MemoryTarget, answer: string | undefined): Promise<void> {
    const t = turn instanceof MemoryTurn ? turn : new MemoryTurn(resolveTarget(turn), '');
    const said: Said[] = [];
    if (t.task.trim() !== '') said.push({ role: 'user', text: t.task.trim() });
    if (answer !== undefined && answer.trim() !== '') said.push({ role: 'assistant', text: answer.trim() });
    await this.#record(t, said, this.#factsKey(undefined));
  }

  /** Erases everything stored for `resource` (after its background observations finish): nothing of it remains in the store. */
  async forget(resource: string): Promise<void> {
    checkMemoryId(resource, 'resource');
    await this.#observer?.idle(resource);
    this.#cache?.forget(resource);
    await this.store.forget(resource);
    this.#cache?.forget(resource);
  }

  /** Resolves when the background observations (of `resource`, or all) have finished. */
  async idle(resource?: string): Promise<void> {
    await this.#observer?.idle(resource);
  }

  /** Errors of background observations so far (they never fail a turn). */
  get observerErrors(): readonly unknown[] {
    return this.#observer?.errors ?? [];
  }

  /** Waits for background work, then closes the store. */
  async close(): Promise<void> {
    await this.idle();
    await this.store.close?.();
  }

  async #beforeModelCall(event: BeforeModelCallEvent): Promise<void> {
    if (!event.memory) return;
    let turn = this.#turns.get(event.agent);
    if (!turn) {
      turn = { added: [], target: undefined, prepared: undefined, working: undefined };
      this.#turns.set(event.agent, turn);
    }
    turn.target ??= event.memory instanceof MemoryTurn ? event.memory : resolveTarget(event.memory);
    turn.prepared ??= this.#prepare(event, turn, turn.target);
    const prepared = await turn.prepared;
    const wm = this.#options.workingMemory;
    const part = renderMemory({
      working: wm ? turn.working : undefined,
      toolName: wm?.toolName ?? '',
      facts: prepared.facts,
      recalled: prepared.recalled,
    });
    event.systemPrompt = withMemory(event.systemPrompt, part);
  }

  /**
   * Reads what an invocation is told: working memory (checked), facts, and recall (capped), all three
   * at once (on a store over the network, one round trip's wait instead of three).
   */
  async #prepare(event: BeforeModelCallEvent, turn: AgentTurn, target: Resolved | MemoryTurn): Promise<Prepared> {
    const agent = event.agent;
    const recalled = this.#recall(target, event.messages);
    const [working, facts] = await Promise.allSettled([
      this.#working?.read(target.resource, this.#workingKey(agent, target.thread)),
      this.#observer ? this.#observer.facts(target.resource, this.#factsKey(agent)) : [],
    ]);
    // Working memory's error first (a schema mismatch), as when the reads ran one after the other.
    if (working.status === 'rejected') throw working.reason;
    if (facts.status === 'rejected') throw facts.reason;
    if (this.#working) turn.working = working.value;
    const outcome = await recalled;
    if (outcome && !outcome.done)
      await event.warn(
        'memory_recall_skipped',
        `Memory recall for ${target.resource} was skipped in this turn: ${outcome.reason}. The turn goes on without it.`,
      );
    return { facts: facts.value, recalled: outcome?.done ? outcome.value : [] };
  }

  #recall(target: Resolved | MemoryTurn, messages: readonly Message[]): Promise<Capped<Recalled>> | undefined {
    const options = this.#options.recall;
    if (!options) return undefined;
    const run = (query: string): Promise<Capped<Recalled>> =>
      capped(
        recall(this.store, target.resource, target.thread, query, options, this.#embedder, this.#cache),
        options.latencyMs,
      );
    if (target instanceof MemoryTurn) return (target.recalled ??= run(target.task));
    const lastUser = [...messages].reverse().find((m) => m.role === 'user' && messageText(m).trim() !== '');
    return run(lastUser ? messageText(lastUser) : '');
  }

  async #afterInvocation(event: AfterInvocationEvent): Promise<void> {
    const turn = this.#turns.get(event.agent);
    this.#turns.delete(event.agent);
    if (!turn?.target || turn.target instanceof MemoryTurn || event.error !== undefined) return;
    const said = turn.added.map(saidIn).filter((s): s is Said => s !== undefined);
    await this.#record(turn.target, said, this.#factsKey(event.agent));
  }

  async #record(target: Resolved, said: readonly Said[], factsKey: string): Promise<void> {
    const { messages, change } = await recordTurn(
      this.store,
      target.resource,
      target.thread,
      said,
      this.#clock,
      this.#embedder,
    );
    this.#cache?.wrote(target.resource, change, messages);
    this.#observer?.schedule(target.resource, factsKey, said);
  }

  #ns(agent: AgentHandle | undefined): string {
    return this.#options.scope === 'agent' && agent ? keyPart(agent.name) : 'shared';
  }

  #workingKey(agent: AgentHandle, thread: string): string {
    const key = `working@${this.#ns(agent)}`;
    return this.#options.workingMemory?.scope === 'thread' ? `${key}=${thread}` : key;
  }

  #factsKey(agent: AgentHandle | undefined): string {
    return `facts@${this.#ns(agent)}`;
  }

  #updateTool(name: string, schema: z.ZodObject): AgentTool {
    return tool({
      name,
      description: toolDescription(schema),
      inputSchema: z.object({ patch: z.record(z.string(), z.unknown()) }),
      callback: async (input, context) => {
        const turn = this.#turns.get(context.agent);
        const target = turn?.target;
        if (!turn || !target || !this.#working)
          throw new MemoryError(
            'This invocation names no memory resource, so there is no working memory to update (invoke with { memory: { resource, thread } }).',
          );
        turn.working = await this.#working.patch(
          target.resource,
          this.#workingKey(context.agent, target.thread),
          patchOf(input),
        );
        return `Working memory updated: ${JSON.stringify(turn.working)}`;
      },
    });
  }
}
