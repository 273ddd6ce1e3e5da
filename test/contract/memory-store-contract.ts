import { type MemoryMessage, type MemoryStore, rankLexical, SkeinError } from '@skein/core';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { Memory } from '@skein/memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** One place to keep memory, fresh per test. */
export interface MemoryStorage {
  /** A store on this storage; a second call is a second writer (another process would be the same). */
  store(): MemoryStore;
  /** True when any byte the storage keeps (files, objects, table rows, index) contains `needle`. */
  holds(needle: string): Promise<boolean>;
  /** Closes every store opened here and removes the storage. */
  dispose(): Promise<void>;
}

/** A memory store the contract suite runs. */
export interface MemoryStoreUnderTest {
  name: string;
  fresh(): Promise<MemoryStorage>;
  /** Several stores on one storage are several writers of it (false for the in-memory store). */
  sharedWriters: boolean;
  timeoutMs?: number;
}

/** A storage whose stores are closed by `dispose`. */
export function trackedMemoryStorage(
  make: () => MemoryStore,
  holds: (needle: string) => Promise<boolean>,
  cleanup: () => Promise<void>,
): MemoryStorage {
  const opened: MemoryStore[] = [];
  return {
    store() {
      const s = make();
      opened.push(s);
      return s;
    },
    holds,
    async dispose() {
      await Promise.all(opened.map((s) => s.close?.().catch(() => undefined)));
      await cleanup();
    },
  };
}

const at = '2026-01-01T00:00:00.000Z';
const msg = (thread: string, seq: number, text: string, embedding?: number[]): MemoryMessage => ({
  thread,
  seq,
  role: seq % 2 === 0 ? 'user' : 'assistant',
  text,
  at,
  ...(embedding ? { embedding } : {}),
});
const texts = (list: readonly { message: MemoryMessage }[] | readonly MemoryMessage[]): string[] =>
  list.map((x) => ('message' in x ? x.message.text : x.text));

/** Lexical search through the store's own index, or (stores without one) through core's BM25 ranking, as `Memory` does. */
async function lexical(
  store: MemoryStore,
  resource: string,
  terms: string[],
  excludeThread?: string,
): Promise<string[]> {
  if (store.searchText) return texts(await store.searchText(resource, terms, { limit: 10, excludeThread }));
  return texts(rankLexical(await store.listMessages(resource), terms, { limit: 10, excludeThread }));
}

/** The `MemoryStore` contract (core's memory-store.ts) and `Memory` on it, over every store. */
export function memoryStoreContract(under: MemoryStoreUnderTest): void {
  describe(`${under.name}: MemoryStore contract`, { timeout: under.timeoutMs ?? 20_000 }, () => {
    let storage: MemoryStorage;
    let s: MemoryStore;
    beforeEach(async () => {
      storage = await under.fresh();
      s = storage.store();
    });
    afterEach(() => storage.dispose());

    it('documents: compare-and-set by version; a stale writer writes nothing', async () => {
      expect(await s.readDocument('ann', 'working@shared')).toBeUndefined();
      expect(await s.writeDocument('ann', 'working@shared', { name: 'Ann' }, 0)).toBe(true);
      expect(await s.writeDocument('ann', 'working@shared', { name: 'Other' }, 0)).toBe(false);
      expect(await s.writeDocument('ann', 'working@shared', { name: 'Ann', plan: 'gold' }, 1)).toBe(true);
      expect(await s.writeDocument('ann', 'working@shared', { name: 'Stale' }, 1)).toBe(false);
      const doc = await s.readDocument('ann', 'working@shared');
      expect(doc).toMatchObject({ key: 'working@shared', value: { name: 'Ann', plan: 'gold' }, version: 2 });
      await s.writeDocument('ann', 'facts@shared', { facts: ['likes tea'] }, 0);
      expect((await s.listDocuments('ann')).map((d) => d.key)).toEqual(['facts@shared', 'working@shared']);
      expect(await s.listDocuments('bob')).toEqual([]);
    });

    it.runIf(under.sharedWriters)('two writers of one document: exactly one wins each version', async () => {
      const other = storage.store();
      await s.writeDocument('ann', 'working@shared', { n: 0 }, 0);
      const wins = await Promise.all([
        s.writeDocument('ann', 'working@shared', { n: 1 }, 1),
        other.writeDocument('ann', 'working@shared', { n: 2 }, 1),
      ]);
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect((await other.readDocument('ann', 'working@shared'))?.version).toBe(2);
    });

    it('messages: listed by thread and seq, read around a hit, searched only within the resource', async () => {
      await s.putMessages('ann', [
        msg('t1', 10, 'hello there'),
        msg('t1', 20, 'I was charged twice for order 42'),
        msg('t1', 30, 'I reversed the duplicate charge on invoice INV-42'),
        msg('t2', 5, 'a new conversation'),
      ]);
      await s.putMessages('bob', [msg('t1', 1, 'my order 7 was charged twice too')]);
      expect(texts(await s.listMessages('ann'))).toEqual([
        'hello there',
        'I was charged twice for order 42',
        'I reversed the duplicate charge on invoice INV-42',
        'a new conversation',
      ]);
      expect(texts(await s.readAround('ann', 't1', 20, 1, 1))).toEqual([
        'hello there',
        'I was charged twice for order 42',
        'I reversed the duplicate charge on invoice INV-42',
      ]);
      expect(texts(await s.readAround('ann', 't1', 10, 3, 0))).toEqual(['hello there']);
      expect(await s.readAround('ann', 't1', 11, 1, 1)).toEqual([]);
      const found = await lexical(s, 'ann', ['double', 'charge'], 't2');
      expect(found).toContain('I was charged twice for order 42');
      expect(found.join(' ')).not.toContain('order 7');
      expect(await lexical(s, 'ann', ['charge'], 't1')).toEqual([]);
      expect(await s.listResources()).toEqual(['ann', 'bob']);
    });

    it('vectors: stored as given, nearest first, a vector of another length is left out', async () => {
      await s.putMessages('ann', [
        msg('t1', 1, 'east', [1, 0, 0]),
        msg('t1', 2, 'north', [0, 1, 0]),
        msg('t1', 3, 'other', [1, 0]),
      ]);
      const back = await s.listMessages('ann');
      expect(back.map((m) => m.embedding)).toEqual([
        [1, 0, 0],
        [0, 1, 0],
        [1, 0],
      ]);
      if (s.searchVector) {
        const hits = await s.searchVector('ann', [0.9, 0.1, 0], { limit: 5 });
        expect(texts(hits)).toEqual(['east', 'north']);
        expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? 1);
      }
    });

    it('search: a rare word finds its old message behind hundreds of newer ones that match a common word', async () => {
      await s.putMessages('ann', [msg('old', 1, 'I was charged twice for order 42')]);
      await s.putMessages(
        'ann',
        Array.from({ length: 600 }, (_, i) => msg(`new${Math.floor(i / 20)}`, 10 + i, `order ${1000 + i} shipped`)),
      );
      expect((await lexical(s, 'ann', ['order', '42']))[0]).toBe('I was charged twice for order 42');
    });

    it('redaction: a message stored again with the same place replaces it everywhere, its index entries too', async () => {
      await s.putMessages('ann', [msg('t1', 1, 'my card is 4111 1111 1111 1111 zebracard')]);
      await s.putMessages('ann', [msg('t1', 1, 'my card is [redacted]')]);
      expect(texts(await s.listMessages('ann'))).toEqual(['my card is [redacted]']);
      expect(await lexical(s, 'ann', ['zebracard'])).toEqual([]);
      expect(await lexical(s, 'ann', ['redacted'])).toEqual(['my card is [redacted]']);
    });

    it('forget: nothing of the resource remains in any table, file, object or index; others are untouched', async () => {
      await s.putMessages('ann', [
        msg('t1', 1, 'quokkasecret order 42', [1, 2, 3]),
        msg('t2', 1, 'quokkasecret again'),
      ]);
      await s.writeDocument('ann', 'working@shared', { note: 'quokkasecret' }, 0);
      await s.putMessages('bob', [msg('t1', 1, 'wombatkept')]);
      expect(await storage.holds('quokkasecret')).toBe(true);
      await s.forget('ann');
      expect(await s.listMessages('ann')).toEqual([]);
      expect(await s.listDocuments('ann')).toEqual([]);
      expect(await lexical(s, 'ann', ['quokkasecret'])).toEqual([]);
      expect(await s.listResources()).toEqual(['bob']);
      expect(await storage.holds('quokkasecret')).toBe(false);
      expect(await storage.holds('wombatkept')).toBe(true);
    });

    it('bad ids: a MemoryError before anything is written', async () => {
      for (const bad of ['../x', 'a/b', '', '.hidden', 'a\\b']) {
        const errors = await Promise.all([
          s.putMessages(bad, [msg('t1', 1, 'x')]).catch((e: unknown) => e),
          s.writeDocument(bad, 'k', {}, 0).catch((e: unknown) => e),
          s.putMessages('ann', [msg(bad, 1, 'x')]).catch((e: unknown) => e),
          s.forget(bad).catch((e: unknown) => e),
        ]);
        for (const e of errors) expect(SkeinError.is(e) && (e as SkeinError).code).toBe('memory_invalid_id');
      }
      expect(await s.listResources()).toEqual([]);
    });

    it('Memory on this store: the second conversation of a customer recalls the first; another customer recalls nothing', async () => {
      // A latency cap far above the store's (a loaded machine must not skip the recall this test reads).
      const memory = new Memory({ store: s, recall: { latencyMs: 30_000 } });
      const turn = async (resource: string, thread: string, prompt: string, answer: string) => {
        const model = new ScriptedModel([answer]);
        await new Agent({ model, memory, systemPrompt: 'desk' }).invoke(prompt, { memory: { resource, thread } });
        return model.requests[0]?.systemPrompt ?? '';
      };
      await turn('ann', 'c1', 'I was charged twice for order 42', 'I reversed the duplicate charge on invoice INV-42.');
      expect(await turn('ann', 'c2', 'Did you fix my double charge?', 'Yes.')).toContain('INV-42');
      expect(await turn('bob', 'c1', 'Did you fix my double charge?', 'Which order?')).toBe('desk');
    });

    /** One turn of an agent on `memory`: the system prompt its model was given. */
    const turnOn = async (memory: Memory, resource: string, thread: string, prompt: string, answer: string) => {
      const model = new ScriptedModel([answer]);
      await new Agent({ model, memory, systemPrompt: 'desk' }).invoke(prompt, { memory: { resource, thread } });
      return model.requests[0]?.systemPrompt ?? '';
    };

    it.runIf(under.sharedWriters)(
      "Memory on this store: another writer's messages and erasure are seen on the next turn (no stale index in this process)",
      async () => {
        const here = new Memory({ store: s, recall: { latencyMs: 30_000 } });
        const there = new Memory({ store: storage.store(), recall: { latencyMs: 30_000 } });
        await turnOn(
          here,
          'ann',
          'c1',
          'I was charged twice for order 42',
          'I reversed the duplicate charge on INV-42.',
        );
        expect(await turnOn(here, 'ann', 'c2', 'Did you fix my double charge?', 'Yes.')).toContain('INV-42');
        await turnOn(there, 'ann', 'c3', 'My parcel went to the wrong address', 'The courier reroutes parcel P-77.');
        expect(await turnOn(here, 'ann', 'c4', 'Where is my parcel now?', 'On its way.')).toContain('P-77');
        await there.forget('ann');
        expect(await turnOn(here, 'ann', 'c5', 'Where is my parcel, and my double charge?', 'Which order?')).toBe(
          'desk',
        );
      },
    );

    it('Memory on this store: forget leaves nothing to recall, in the store or in this process', async () => {
      const memory = new Memory({ store: s, recall: { latencyMs: 30_000 } });
      await turnOn(
        memory,
        'ann',
        'c1',
        'I was charged twice for order 42',
        'I reversed the duplicate charge on INV-42.',
      );
      expect(await turnOn(memory, 'ann', 'c2', 'Did you fix my double charge?', 'Yes.')).toContain('INV-42');
      await memory.forget('ann');
      await turnOn(memory, 'ann', 'c3', 'Hello, I have a new account', 'Welcome.');
      expect(await turnOn(memory, 'ann', 'c4', 'Did you fix my double charge?', 'Which order?')).not.toContain(
        'INV-42',
      );
      expect(await storage.holds('INV-42')).toBe(false);
    });
  });
}
