import { type Budget, ConfigurationError, type EmbeddingModel, type MemoryStore, type Model } from '@skein/core';
import type { z } from 'zod';
import { InMemoryMemoryStore } from './in-memory-store.js';

/** Working memory: a record per resource (or per thread) that the model keeps up to date through a tool. */
export interface WorkingMemoryOptions {
  /** The record's shape (a zod object); every update is checked against it. */
  schema: z.ZodObject;
  /** `'resource'` (default): one record across all conversations of the resource; `'thread'`: one per conversation. */
  scope?: 'resource' | 'thread';
  /** The update tool's name. Default `update_working_memory`. */
  toolName?: string;
}

/** Recall: the messages of the resource's earlier conversations that match the new message. */
export interface RecallOptions {
  /** `'lexical'` (default without `embeddings`), `'vector'`, or `'hybrid'` (default with `embeddings`): both, fused by reciprocal rank. */
  mode?: 'lexical' | 'vector' | 'hybrid';
  /** The embedding model for vector and hybrid recall; each message is embedded once, when it is stored. */
  embeddings?: EmbeddingModel;
  /** How many hits. Default 3. */
  topK?: number;
  /** Messages of the hit's conversation shown around each hit: a number (before and after) or both. Default 1. */
  messageRange?: number | { before: number; after: number };
  /** Recall that takes longer is skipped for the turn (a `memory_recall_skipped` warning); the turn goes on. Default 200 ms. */
  latencyMs?: number;
  /**
   * Lexical recall keeps an index of each resource's messages in this process (for stores that keep a
   * message version: SQLite), at most this many messages over all resources (least recently used
   * resources go first). Default 100,000; 0: none, every search goes through the store.
   */
  cacheMessages?: number;
}

/** Observational memory: a background model keeps a short list of facts per resource after each turn. */
export interface ObserveOptions {
  /** Any skein model (a small one does). */
  model: Model;
  /** The longest list kept. Default 20. */
  maxFacts?: number;
  /** Its own budget over all its calls (a run-tree budget). Default `{ modelCalls: 1000 }`. Spent: it stops observing. */
  budget?: Budget;
  /** Replaces the default instructions. */
  instructions?: string;
}

/** Options of `new Memory({...})`. */
export interface MemoryOptions {
  /** Where memory is kept. Default: an `InMemoryMemoryStore` (this process only). */
  store?: MemoryStore;
  /**
   * Under which name each agent reads and writes working memory and facts: `'shared'` (default) — every
   * agent using this memory (a graph's nodes, a swarm's members) shares them; `'agent'` — each its own, by agent name.
   */
  scope?: 'shared' | 'agent';
  /** A record the model keeps through a tool (merge patch). */
  workingMemory?: WorkingMemoryOptions;
  /** Recall across conversations; `false` turns it off. Default: lexical, top 3. */
  recall?: RecallOptions | false;
  /** Facts kept by a background model after each turn. */
  observe?: ObserveOptions;
}

/** The options with their defaults. */
export interface ResolvedMemoryOptions {
  store: MemoryStore;
  scope: 'shared' | 'agent';
  workingMemory: (Required<Omit<WorkingMemoryOptions, 'scope'>> & { scope: 'resource' | 'thread' }) | undefined;
  recall:
    | {
        mode: 'lexical' | 'vector' | 'hybrid';
        embeddings: EmbeddingModel | undefined;
        topK: number;
        before: number;
        after: number;
        latencyMs: number;
        cacheMessages: number;
      }
    | undefined;
  observe: { model: Model; maxFacts: number; budget: Budget; instructions: string | undefined } | undefined;
}

const KNOWN = ['store', 'scope', 'workingMemory', 'recall', 'observe'];

function count(value: unknown, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
    throw new ConfigurationError(`Memory option ${name} must be an integer >= ${min} (got ${JSON.stringify(value)}).`);
  return value;
}

/** Checks `new Memory()`'s options (a `ConfigurationError` naming the bad one) and fills in the defaults. */
export function resolveMemoryOptions(options: MemoryOptions): ResolvedMemoryOptions {
  const unknown = Object.keys(options).filter((k) => !KNOWN.includes(k));
  if (unknown.length > 0)
    throw new ConfigurationError(`Unknown Memory option(s): ${unknown.join(', ')}. Known: ${KNOWN.join(', ')}.`);
  const store = options.store ?? new InMemoryMemoryStore();
  if (typeof store.readDocument !== 'function' || typeof store.putMessages !== 'function')
    throw new ConfigurationError(
      'Memory option store must be a memory store, e.g. new SqliteMemoryStore({ path }) from @skein/session-sqlite.',
    );
  const scope = options.scope ?? 'shared';
  if (scope !== 'shared' && scope !== 'agent')
    throw new ConfigurationError(`Memory option scope must be 'shared' or 'agent' (got ${JSON.stringify(scope)}).`);
  return {
    store,
    scope,
    workingMemory: resolveWorking(options.workingMemory),
    recall: options.recall === false ? undefined : resolveRecall(options.recall ?? {}),
    observe: resolveObserve(options.observe),
  };
}

function resolveWorking(working: WorkingMemoryOptions | undefined): ResolvedMemoryOptions['workingMemory'] {
  if (working === undefined) return undefined;
  const schema = working.schema as unknown as { safeParse?: unknown; shape?: unknown } | undefined;
  if (!schema || typeof schema.safeParse !== 'function' || typeof schema.shape !== 'object')
    throw new ConfigurationError(
      'Memory option workingMemory.schema must be a zod object, e.g. z.object({ name: z.string().optional() }).',
    );
  const scope = working.scope ?? 'resource';
  if (scope !== 'resource' && scope !== 'thread')
    throw new ConfigurationError(`workingMemory.scope must be 'resource' or 'thread' (got ${JSON.stringify(scope)}).`);
  return { schema: working.schema, scope, toolName: working.toolName ?? 'update_working_memory' };
}

function resolveRecall(recall: RecallOptions): ResolvedMemoryOptions['recall'] {
  const embeddings = recall.embeddings;
  if (embeddings !== undefined && typeof embeddings.embed !== 'function')
    throw new ConfigurationError('recall.embeddings must be an EmbeddingModel ({ modelId, embed(texts) }).');
  const mode = recall.mode ?? (embeddings ? 'hybrid' : 'lexical');
  if (!['lexical', 'vector', 'hybrid'].includes(mode))
    throw new ConfigurationError(`recall.mode must be 'lexical', 'vector' or 'hybrid' (got ${JSON.stringify(mode)}).`);
  if (mode !== 'lexical' && !embeddings)
    throw new ConfigurationError(
      `recall.mode '${mode}' needs recall.embeddings, an EmbeddingModel (e.g. new OpenAIEmbeddingModel() from @skein/model-openai).`,
    );
  const range = recall.messageRange ?? 1;
  const [before, after] =
    typeof range === 'number'
      ? [count(range, 'recall.messageRange', 1), count(range, 'recall.messageRange', 1)]
      : [count(range.before, 'recall.messageRange.before', 1), count(range.after, 'recall.messageRange.after', 1)];
  return {
    mode,
    embeddings,
    topK: count(recall.topK, 'recall.topK', 3, 1),
    before,
    after,
    latencyMs: count(recall.latencyMs, 'recall.latencyMs', 200, 1),
    cacheMessages: count(recall.cacheMessages, 'recall.cacheMessages', 100_000),
  };
}

function resolveObserve(observe: ObserveOptions | undefined): ResolvedMemoryOptions['observe'] {
  if (observe === undefined) return undefined;
  if (!observe.model || typeof observe.model.stream !== 'function')
    throw new ConfigurationError('observe.model must be a skein model (any provider, or ScriptedModel for tests).');
  return {
    model: observe.model,
    maxFacts: count(observe.maxFacts, 'observe.maxFacts', 20, 1),
    budget: observe.budget ?? { modelCalls: 1000 },
    instructions: observe.instructions,
  };
}
