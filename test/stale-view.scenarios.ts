/**
 * Issue 30, the same for every store with claims (file lock, S3 lease): a writer never goes on from a
 * stale view. Each scenario loads a session in two writers (each a session manager with its own
 * repository, as two processes would), lets one write and give the session up, then the other
 * writes: it gets `SessionConflictError` and nothing of it is stored, so the stored session is
 * exactly the turns their writers were told were written.
 */
import {
  Agent,
  BeforeInvocationEvent,
  SessionConflictError,
  messageText,
  type RepositorySessionManager,
  type SessionRepository,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder, type Graph } from '@skein/graph';
import { Swarm } from '@skein/swarm';
import { describe, expect, it } from 'vitest';

export interface StoreUnderTest {
  /** A new writer of `sessionId`: a session manager with a repository of its own. */
  manager(sessionId: string): RepositorySessionManager;
  /** A repository to read what is stored. */
  reader(): SessionRepository;
}

const STALE = (sessionId: string): RegExp =>
  new RegExp(
    `${sessionId}[^]*another writer[^]*Reload it \\(build the agent, Graph or Swarm again on a new session manager\\)[^]*Nothing was written`,
  );

async function conflict(work: Promise<unknown>): Promise<SessionConflictError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!SessionConflictError.is(error)) throw new Error(`expected a SessionConflictError, got ${String(error)}`);
  return error as SessionConflictError;
}

/** An agent whose state names its writer (set at its first message, after its restore): the agent record says who wrote it last. */
function agent(manager: RepositorySessionManager, who: string, turns = 3): Agent {
  const answers = Array.from({ length: turns }, (_, i) => `${who} answer ${i}`);
  const a = new Agent({ model: new ScriptedModel(answers), sessionManager: manager });
  a.hooks.addCallback(BeforeInvocationEvent, () => a.state.set('writer', who));
  return a;
}

/** A session that exists already (an earlier writer created it and closed), so loading it writes nothing. */
async function existing(store: StoreUnderTest, id: string): Promise<void> {
  const setup = store.manager(id);
  await setup.ensureSession('MULTI_AGENT');
  await setup.close();
}

async function stored(reader: SessionRepository, sessionId: string): Promise<{ texts: string[]; writer: unknown }> {
  const rows = await reader.listMessages(sessionId, 'default');
  const record = await reader.readAgent(sessionId, 'default');
  return { texts: rows.map((r) => messageText(r.message)), writer: record?.state?.['writer'] };
}

function graph(manager: RepositorySessionManager, who: string): Graph {
  const node = (name: string): Agent => new Agent({ name, model: new ScriptedModel([`${who} ${name} done`]) });
  return new GraphBuilder()
    .setId('flow')
    .addNode(node('first'), 'first')
    .addNode(node('second'), 'second')
    .addEdge('first', 'second')
    .setEntryPoint('first')
    .setSessionManager(manager)
    .build();
}

function swarm(manager: RepositorySessionManager, who: string): Swarm {
  const toBilling = { name: 'transfer_to_billing', input: {}, toolUseId: `${who}-handoff` };
  return new Swarm({
    id: 'desk',
    sessionManager: manager,
    nodes: [
      new Agent({ name: 'triage', model: new ScriptedModel([{ text: 'To billing.', toolUses: [toBilling] }]) }),
      new Agent({ name: 'billing', model: new ScriptedModel([`${who} billing answer`]) }),
    ],
  });
}

/** The stored orchestrator: its transitions and every node entry, as text. */
async function storedRun(reader: SessionRepository, sessionId: string, id: string): Promise<string> {
  const [transitions, entries] = await Promise.all([
    reader.readTransitions(sessionId, id),
    reader.readNodeEntries(sessionId, id),
  ]);
  return JSON.stringify({ transitions: transitions.map((t) => `${t.from}>${t.to}:${t.kind}`), entries });
}

export function staleViewScenarios(store: StoreUnderTest): void {
  describe('a writer never goes on from a stale view', () => {
    it('an agent that loaded the session before another writer wrote and closed it fails at its next write; nothing of it is stored', async () => {
      const id = `agent-stale-${Date.now()}`;
      const setup = store.manager(id);
      await agent(setup, 'setup').invoke('earlier');
      await setup.close();
      const [ma, mb] = [store.manager(id), store.manager(id)];
      const [a, b] = [agent(ma, 'A'), agent(mb, 'B')];
      await Promise.all([a.initialize(), b.initialize()]); // both loaded the same two messages
      await a.invoke('A question');
      await ma.close();
      const error = await conflict(b.invoke('B question'));
      expect(error.message).toMatch(STALE(id));
      expect(error.message).toMatch(/after this writer loaded it/);
      // The turn's record sync after the invocation was refused too, and rides along on the error.
      const suppressed = (error as { suppressed?: unknown[] }).suppressed ?? [];
      expect(suppressed.map((e) => SessionConflictError.is(e))).toEqual([true]);
      expect(b.messages.map(messageText).at(-1)).toBe('B question'); // in memory only: stale by definition
      const expected = ['earlier', 'setup answer 0', 'A question', 'A answer 0'];
      expect(await stored(store.reader(), id)).toEqual({ texts: expected, writer: 'A' });
      // The loser stays refused (its in-memory history is stale by definition) and still stores nothing.
      await conflict(b.invoke('B again'));
      expect(await stored(store.reader(), id)).toEqual({ texts: expected, writer: 'A' });
      // Reloaded on a new session manager, it goes on from what is stored.
      const c = agent(store.manager(id), 'C');
      await c.invoke('C question');
      expect(c.messages.map(messageText)).toEqual([...expected, 'C question', 'C answer 0']);
      expect((await stored(store.reader(), id)).texts).toEqual(c.messages.map(messageText));
    });

    it('a writer that loaded while another held the session fails, even after that one closed without writing more', async () => {
      const id = `agent-held-${Date.now()}`;
      const ma = store.manager(id);
      const a = agent(ma, 'A');
      await a.invoke('A first'); // A holds the session now
      const mb = store.manager(id);
      const b = agent(mb, 'B');
      await b.initialize(); // loads while A holds it: A may write after this load
      await ma.close();
      const error = await conflict(b.invoke('B question'));
      expect(error.message).toMatch(/another writer/);
      expect(error.message).toMatch(/Reload it[^]*Nothing was written/);
      expect(await stored(store.reader(), id)).toEqual({ texts: ['A first', 'A answer 0'], writer: 'A' });
    });

    it('a long-lived writer that releases between turns goes on alone, and detects another writer’s turn', async () => {
      const id = `agent-release-${Date.now()}`;
      const ma = store.manager(id);
      const a = agent(ma, 'A');
      await a.invoke('A1');
      await ma.release();
      await a.invoke('A2'); // its own claim again: nobody else wrote
      await ma.release();
      const mb = store.manager(id);
      const b = agent(mb, 'B');
      await b.invoke('B1'); // B loads A's turns and answers after them
      expect(b.messages.map(messageText)).toEqual(['A1', 'A answer 0', 'A2', 'A answer 1', 'B1', 'B answer 0']);
      await mb.release();
      const error = await conflict(a.invoke('A3'));
      expect(error.message).toMatch(STALE(id));
      expect((await stored(store.reader(), id)).texts).toEqual(b.messages.map(messageText));
    });

    it('a Graph that loaded the session before another Graph ran on it fails at its first write; only the first run is stored', async () => {
      const id = `graph-${Date.now()}`;
      await existing(store, id);
      const [ma, mb] = [store.manager(id), store.manager(id)];
      const [ga, gb] = [graph(ma, 'A'), graph(mb, 'B')];
      expect([await ga.lastResult(), await gb.lastResult()]).toEqual([undefined, undefined]); // both loaded
      expect((await ga.invoke('A task')).status).toBe('completed');
      await ma.close();
      const before = await storedRun(store.reader(), id, 'flow');
      expect((await conflict(gb.invoke('B task'))).message).toMatch(STALE(id));
      const after = await storedRun(store.reader(), id, 'flow');
      expect(after).toBe(before);
      expect(after).not.toMatch(/B (task|first|second)/);
    });

    it('a Swarm that loaded the session before another Swarm ran on it fails at its first write; only the first run is stored', async () => {
      const id = `swarm-${Date.now()}`;
      await existing(store, id);
      const [ma, mb] = [store.manager(id), store.manager(id)];
      const [sa, sb] = [swarm(ma, 'A'), swarm(mb, 'B')];
      expect([await sa.lastResult(), await sb.lastResult()]).toEqual([undefined, undefined]);
      expect((await sa.invoke('A task')).status).toBe('completed');
      await ma.close();
      const before = await storedRun(store.reader(), id, 'desk');
      expect((await conflict(sb.invoke('B task'))).message).toMatch(STALE(id));
      const after = await storedRun(store.reader(), id, 'desk');
      expect(after).toBe(before);
      expect(after).not.toMatch(/B (task|billing)/);
      expect(after).toMatch(/A billing answer/);
    });

    it('a repository used directly (no view) keeps the old behaviour: after the holder closed, another writes', async () => {
      const id = `direct-${Date.now()}`;
      const first = store.manager(id);
      await agent(first, 'A').invoke('A1');
      await first.close();
      const direct = store.manager(id).repository;
      const now = new Date().toISOString();
      await direct.createMessage(id, 'default', {
        message: { role: 'user', content: [{ text: 'direct' }] },
        message_id: 2,
        redact_message: null,
        created_at: now,
        updated_at: now,
      });
      expect((await stored(store.reader(), id)).texts).toEqual(['A1', 'A answer 0', 'direct']);
    });
  });
}
