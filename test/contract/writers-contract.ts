import {
  Agent,
  messageText,
  RepositorySessionManager,
  SessionConflictError,
  type SessionRepository,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { row, withAgent } from './fixtures.js';
import { closeRepository, type Storage, type StoreUnderTest } from './store-under-test.js';

const ids = async (r: SessionRepository): Promise<number[]> =>
  (await r.listMessages('s', 'default')).map((m) => m.message_id);

/** One writer per session, and no writer going on from a stale view (DESIGN section 5, issue 30). */
export function writersContract(store: StoreUnderTest): void {
  describe.skipIf(!store.sharedWriters)(`${store.name}: two writers`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await store.fresh();
    });
    afterEach(() => storage.dispose());

    it('a second writer gets SessionConflictError before anything of it is stored; the first goes on', async () => {
      const a = storage.repository();
      const b = storage.repository();
      await withAgent(a, 's');
      await a.createMessage('s', 'default', row(0));
      await expect(b.createMessage('s', 'default', row(1))).rejects.toBeInstanceOf(SessionConflictError);
      await expect(
        b.updateAgent('s', { ...(await b.readAgent('s', 'default'))!, state: { b: 1 } }),
      ).rejects.toBeInstanceOf(SessionConflictError);
      if (b.writeBatch)
        await expect(
          b.writeBatch('s', [{ op: 'createMessage', agentId: 'default', message: row(1) }]),
        ).rejects.toBeInstanceOf(SessionConflictError);
      await a.createMessage('s', 'default', row(1));
      expect(await ids(a)).toEqual([0, 1]);
      expect((await a.readAgent('s', 'default'))?.state).toEqual({});
    });

    it('after the first writer closes, a writer that loads the session then goes on', async () => {
      const a = storage.repository();
      await withAgent(a, 's');
      await a.createMessage('s', 'default', row(0));
      await closeRepository(a);
      const b = storage.repository();
      await b.beginView?.('s');
      await b.createMessage('s', 'default', row(1));
      expect(await ids(b)).toEqual([0, 1]);
    });

    it('stale view: a writer that loaded before another wrote and closed fails at its next write, storing nothing', async (context) => {
      const b = storage.repository();
      if (!b.beginView) return context.skip();
      const a = storage.repository();
      await withAgent(a, 's');
      await closeRepository(a);
      await b.beginView('s'); // b loads: one message... none yet
      const c = storage.repository();
      await c.beginView?.('s');
      await c.createMessage('s', 'default', row(0)); // another writer writes and closes
      await closeRepository(c);
      await expect(
        b.createMessage('s', 'default', row(0, { role: 'user', content: [{ text: 'b' }] })),
      ).rejects.toBeInstanceOf(SessionConflictError);
      expect((await b.listMessages('s', 'default')).map((m) => messageText(m.message))).toEqual(['m0']);
    });

    it('stale view: a writer that loaded while another held the session fails even after the other closed', async (context) => {
      const b = storage.repository();
      if (!b.beginView) return context.skip();
      const a = storage.repository();
      await withAgent(a, 's');
      await b.beginView('s'); // a holds the session now
      await closeRepository(a);
      await expect(b.createMessage('s', 'default', row(0))).rejects.toBeInstanceOf(SessionConflictError);
      expect(await ids(b)).toEqual([]);
    });

    it('agents: two processes load one conversation; the one that answers second is told to reload, nothing of it stored', async (context) => {
      const first = storage.repository();
      if (!first.beginView) return context.skip();
      const a = new Agent({
        model: new ScriptedModel(['A answer']),
        sessionManager: new RepositorySessionManager({ sessionId: 's', repository: first }),
      });
      const second = storage.repository();
      const b = new Agent({
        model: new ScriptedModel(['B answer']),
        sessionManager: new RepositorySessionManager({ sessionId: 's', repository: second }),
      });
      await a.initialize();
      await closeRepository(first);
      await b.initialize().catch(() => undefined); // loads the session (empty, released)
      const writer = storage.repository();
      const c = new Agent({
        model: new ScriptedModel(['C answer']),
        sessionManager: new RepositorySessionManager({ sessionId: 's', repository: writer }),
      });
      await c.invoke('C question');
      await closeRepository(writer);
      await expect(b.invoke('B question')).rejects.toBeInstanceOf(SessionConflictError);
      const reader = storage.repository();
      expect((await reader.listMessages('s', 'default')).map((m) => messageText(m.message))).toEqual([
        'C question',
        'C answer',
      ]);
    });
  });
}
