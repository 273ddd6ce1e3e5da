import {
  SessionConflictError,
  SessionCorruptError,
  SessionNotFoundError,
  type SessionRepository,
  type SessionWrite,
} from '@skein/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentRecord, at, row, text, transition, withAgent, withOrchestrator } from './fixtures.js';
import type { Storage, StoreUnderTest } from './store-under-test.js';

/** The `SessionRepository` contract (session-repository.ts), record by record. */
export function repositoryContract(store: StoreUnderTest): void {
  describe(`${store.name}: SessionRepository contract`, () => {
    let storage: Storage;
    let r: SessionRepository;
    beforeEach(async () => {
      storage = await store.fresh();
      r = storage.repository();
    });
    afterEach(() => storage.dispose());

    it('sessions: create, read back, a second create conflicts, a missing one reads undefined, delete removes all', async () => {
      const session = { session_id: 's1', session_type: 'AGENT' as const, created_at: at, updated_at: at };
      expect(await r.createSession(session)).toEqual(session);
      expect(await r.readSession('s1')).toEqual(session);
      await expect(r.createSession(session)).rejects.toBeInstanceOf(SessionConflictError);
      expect(await r.readSession('nope')).toBeUndefined();
      await r.createAgent('s1', agentRecord());
      await r.createMessage('s1', 'default', row(0));
      await r.deleteSession('s1');
      expect(await r.readSession('s1')).toBeUndefined();
      expect(await r.readAgent('s1', 'default')).toBeUndefined();
      expect(await r.readMessage('s1', 'default', 0)).toBeUndefined();
    });

    it('agents: need their session, conflict on a second create, update only what exists', async () => {
      await expect(r.createAgent('missing', agentRecord())).rejects.toBeInstanceOf(SessionNotFoundError);
      await withAgent(r, 's');
      await expect(r.createAgent('s', agentRecord())).rejects.toBeInstanceOf(SessionConflictError);
      await r.updateAgent('s', { ...agentRecord(), state: { tier: 'gold' }, _internal_state: { x: 1 } });
      expect(await r.readAgent('s', 'default')).toMatchObject({ state: { tier: 'gold' }, _internal_state: { x: 1 } });
      await expect(r.updateAgent('s', agentRecord('ghost'))).rejects.toBeInstanceOf(SessionNotFoundError);
      expect(await r.readAgent('s', 'ghost')).toBeUndefined();
      expect(await r.readAgent('missing', 'default')).toBeUndefined();
    });

    it('messages: in id order from an offset, bytes kept, redaction, delete from an id, a second create conflicts', async () => {
      await withAgent(r, 's');
      const image = {
        role: 'user' as const,
        content: [{ image: { format: 'png' as const, source: { bytes: new Uint8Array([1, 2, 255]) } } }],
      };
      await r.createMessage('s', 'default', row(0, image));
      for (const id of [1, 2, 3]) await r.createMessage('s', 'default', row(id));
      await expect(r.createMessage('s', 'default', row(1))).rejects.toBeInstanceOf(SessionConflictError);
      const all = await r.listMessages('s', 'default');
      expect(all.map((m) => m.message_id)).toEqual([0, 1, 2, 3]);
      expect(all[0]?.message).toEqual(image);
      expect((await r.listMessages('s', 'default', { offset: 1, limit: 2 })).map((m) => m.message_id)).toEqual([1, 2]);
      await r.updateMessage('s', 'default', { ...row(3), redact_message: text('assistant', '[redacted]') });
      expect((await r.readMessage('s', 'default', 3))?.redact_message).toEqual(text('assistant', '[redacted]'));
      await expect(r.updateMessage('s', 'default', row(9))).rejects.toBeInstanceOf(SessionNotFoundError);
      await r.deleteMessages('s', 'default', 2);
      expect((await r.listMessages('s', 'default')).map((m) => m.message_id)).toEqual([0, 1]);
      expect(await r.readMessage('s', 'default', 3)).toBeUndefined();
    });

    it('a gap in the message ids is a SessionCorruptError', async () => {
      await withAgent(r, 's');
      await r.createMessage('s', 'default', row(0));
      await r.createMessage('s', 'default', row(2));
      await expect(r.listMessages('s', 'default')).rejects.toBeInstanceOf(SessionCorruptError);
    });

    it('orchestrators: state document, node entries replaced, transitions stored once, delete clears them', async () => {
      await withOrchestrator(r, 's');
      await expect(
        r.createMultiAgent('s', { id: 'g', type: 'graph', state: {}, created_at: at, updated_at: at }),
      ).rejects.toBeInstanceOf(SessionConflictError);
      await r.updateMultiAgent('s', { id: 'g', type: 'graph', state: { n: 1 }, created_at: at, updated_at: at });
      expect((await r.readMultiAgent('s', 'g'))?.state).toEqual({ n: 1 });
      await r.putNodeEntry('s', 'g', 'a', { result: 'first' });
      await r.putNodeEntry('s', 'g', 'a', { result: 'second' });
      await r.putNodeEntry('s', 'g', 'b', { result: 'b' });
      expect(await r.readNodeEntries('s', 'g')).toEqual({ a: { result: 'second' }, b: { result: 'b' } });
      await r.appendTransitions('s', 'g', [transition(0), transition(1)]);
      await expect(r.appendTransitions('s', 'g', [transition(1)])).rejects.toBeInstanceOf(SessionConflictError);
      await r.appendTransitions('s', 'g', [transition(2, null)]);
      expect((await r.readTransitions('s', 'g')).map((t) => [t.seq, t.to])).toEqual([
        [0, 'n0'],
        [1, 'n1'],
        [2, null],
      ]);
      await expect(
        r.updateMultiAgent('s', { id: 'x', type: 'graph', state: {}, created_at: at, updated_at: at }),
      ).rejects.toBeInstanceOf(SessionNotFoundError);
      await r.deleteMultiAgent('s', 'g');
      expect(await r.readMultiAgent('s', 'g')).toBeUndefined();
      await r.createMultiAgent('s', { id: 'g', type: 'graph', state: {}, created_at: at, updated_at: at });
      expect(await r.readNodeEntries('s', 'g')).toEqual({});
      expect(await r.readTransitions('s', 'g')).toEqual([]);
    });

    it('ids that could leave the storage are a SessionNotFoundError before anything is touched', async () => {
      await withAgent(r, 's');
      for (const bad of ['../x', '.hidden', 'a/b', '', 'x'.repeat(300)]) {
        await expect(r.readSession(bad)).rejects.toBeInstanceOf(SessionNotFoundError);
        await expect(r.createAgent('s', agentRecord(bad))).rejects.toBeInstanceOf(SessionNotFoundError);
        await expect(r.createMessage(bad, 'default', row(0))).rejects.toBeInstanceOf(SessionNotFoundError);
        await expect(r.putNodeEntry('s', 'g', bad, {})).rejects.toBeInstanceOf(SessionNotFoundError);
      }
      expect((await r.listMessages('s', 'default')).length).toBe(0);
    });

    it('a stored message that is not valid JSON is a SessionCorruptError naming where it is', async (context) => {
      if (!storage.corruptMessage) return context.skip();
      await withAgent(r, 's');
      await r.createMessage('s', 'default', row(0));
      await r.createMessage('s', 'default', row(1));
      await storage.corruptMessage('s', 'default', 1);
      const error = await r.listMessages('s', 'default').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionCorruptError);
      expect((error as SessionCorruptError).location).toBeTruthy();
      await expect(r.readMessage('s', 'default', 1)).rejects.toBeInstanceOf(SessionCorruptError);
    });

    it('writeBatch (where present): applied in order, all or none, with the checks of the single calls', async (context) => {
      if (!r.writeBatch) return context.skip();
      await withAgent(r, 's');
      await r.createMessage('s', 'default', row(0));
      const good: SessionWrite[] = [
        { op: 'createMessage', agentId: 'default', message: row(1) },
        { op: 'updateAgent', agent: agentRecord('default', { n: 1 }) },
        { op: 'createMultiAgent', multiAgent: { id: 'g', type: 'graph', state: {}, created_at: at, updated_at: at } },
        { op: 'putNodeEntry', multiAgentId: 'g', nodeId: 'a', entry: { ok: true } },
        { op: 'appendTransitions', multiAgentId: 'g', transitions: [transition(0)] },
        { op: 'deleteMessages', agentId: 'default', fromMessageId: 1 },
        { op: 'createMessage', agentId: 'default', message: row(1, text('assistant', 'again')) },
      ];
      await r.writeBatch('s', good);
      expect((await r.readMessage('s', 'default', 1))?.message).toEqual(text('assistant', 'again'));
      expect((await r.readAgent('s', 'default'))?.state).toEqual({ n: 1 });
      expect(await r.readNodeEntries('s', 'g')).toEqual({ a: { ok: true } });
      const failing: SessionWrite[] = [
        { op: 'createMessage', agentId: 'default', message: row(2) },
        { op: 'updateAgent', agent: agentRecord('default', { n: 2 }) },
        { op: 'appendTransitions', multiAgentId: 'g', transitions: [transition(1)] },
        { op: 'createMessage', agentId: 'default', message: row(0) }, // exists: the batch fails
      ];
      await expect(r.writeBatch('s', failing)).rejects.toBeInstanceOf(SessionConflictError);
      expect((await r.listMessages('s', 'default')).map((m) => m.message_id)).toEqual([0, 1]);
      expect((await r.readAgent('s', 'default'))?.state).toEqual({ n: 1 });
      expect((await r.readTransitions('s', 'g')).length).toBe(1);
      await expect(
        r.writeBatch('s', [{ op: 'putNodeEntry', multiAgentId: 'none', nodeId: 'a', entry: {} }]),
      ).rejects.toBeInstanceOf(SessionNotFoundError);
    });
  });
}
