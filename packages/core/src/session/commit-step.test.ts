import { describe, expect, it } from 'vitest';
import {
  Agent,
  InMemorySessionRepository,
  RepositorySessionManager,
  SessionConflictError,
  messageText,
  type SessionRepository,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

/** An in-memory repository that logs each write's start and end, and can hold writes until they are all under way. */
class LoggingRepository extends InMemorySessionRepository {
  readonly log: string[] = [];
  /** When set: node-entry and message writes wait until this many of them have started. */
  barrier: { size: number; started: number; open: () => void; opened: Promise<void> } | undefined;

  hold(size: number): void {
    let open = (): void => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.barrier = { size, started: 0, open, opened };
  }

  async #held<T>(name: string, write: () => Promise<T>): Promise<T> {
    this.log.push(`start ${name}`);
    const b = this.barrier;
    if (b) {
      if (++b.started === b.size) b.open();
      await b.opened;
    }
    const out = await write();
    this.log.push(`end ${name}`);
    return out;
  }

  override putNodeEntry(...args: Parameters<SessionRepository['putNodeEntry']>): Promise<void> {
    return this.#held(`node ${args[2]}`, () => super.putNodeEntry(...args));
  }
  override createMessage(...args: Parameters<SessionRepository['createMessage']>): Promise<void> {
    return this.#held(`message ${args[2].message_id}`, () => super.createMessage(...args));
  }
  override async updateMultiAgent(...args: Parameters<SessionRepository['updateMultiAgent']>): Promise<void> {
    this.log.push('state');
    await super.updateMultiAgent(...args);
  }
}

const open = async (repository: SessionRepository) =>
  new RepositorySessionManager({ sessionId: 's', repository }).openMultiAgent('g', 'graph');

describe('MultiAgentSession.commitStep', () => {
  it('writes node entries and a deferred member agent together, then the state document, then the transitions', async () => {
    const repository = new LoggingRepository();
    const session = await open(repository);
    await session.commitStep({
      state: { step: 0 },
      transitions: [{ from: null, to: 'a', kind: 'start', reason: 'entry' }],
    });
    const agent = new Agent({ model: new ScriptedModel(['done']) });
    await session.attachAgent(agent, 'a', { restore: true, deferWrites: true });
    await agent.invoke('work');
    // Deferred: nothing of the invocation is stored yet.
    expect(await repository.listMessages('s', 'g.a')).toEqual([]);
    // The three writes of the round wait for each other: written one after another, this never resolves.
    repository.hold(3);
    const stored = await session.commitStep({
      nodes: [{ id: 'a', entry: { result: 'done' } }],
      agents: [agent],
      state: { step: 1 },
      transitions: [{ from: 'a', to: 'b', kind: 'edge', reason: 'always' }],
    });
    expect(stored.map((t) => [t.seq, t.from, t.to])).toEqual([[1, 'a', 'b']]);
    const round = repository.log.slice(repository.log.indexOf('start node a'));
    expect(round.indexOf('state')).toBeGreaterThan(
      Math.max(round.indexOf('end node a'), round.indexOf('end message 0'), round.indexOf('end message 1')),
    );
    await session.settle();
    const reopened = await open(repository);
    const snapshot = await reopened.load();
    expect(snapshot?.state).toEqual({ step: 1 });
    expect(snapshot?.nodes).toEqual({ a: { result: 'done' } });
    expect(snapshot?.transitions.map((t) => t.seq)).toEqual([0, 1]);
    expect((await repository.listMessages('s', 'g.a')).map((m) => messageText(m.message))).toEqual(['work', 'done']);
  });

  it('the first step creates the orchestrator with its state document, then stores its node entries', async () => {
    const repository = new LoggingRepository();
    const session = await open(repository);
    await session.commitStep({ nodes: [{ id: 'task', entry: { text: 'the task' } }], state: { step: 0 } });
    expect(repository.log).toEqual(['start node task', 'end node task']);
    expect((await (await open(repository)).load())?.nodes).toEqual({ task: { text: 'the task' } });
    expect((await repository.readMultiAgent('s', 'g'))?.state).toEqual({ step: 0 });
  });

  it('brings a member back to a checkpoint: messages stored after it are removed, even past a gap', async () => {
    const repository = new InMemorySessionRepository();
    const session = await open(repository);
    await session.commitStep({ state: {} });
    const agent = new Agent({ model: new ScriptedModel(['one', 'two'], { loop: true }) });
    await session.attachAgent(agent, 'a', { restore: true, deferWrites: true });
    await agent.invoke('first');
    await session.commitStep({ agents: [agent], state: {} });
    const checkpoint = session.checkpointOf(agent);
    expect(checkpoint?.nextMessageId).toBe(2);
    // A step cut by a crash: its messages were written concurrently and one is missing.
    const now = new Date().toISOString();
    for (const id of [3, 4])
      await repository.createMessage('s', 'g.a', {
        message: { role: 'user', content: [{ text: `lost ${id}` }] },
        message_id: id,
        redact_message: null,
        created_at: now,
        updated_at: now,
      });
    const restored = new Agent({ model: new ScriptedModel([]) });
    await (await open(repository)).attachAgent(restored, 'a', { restore: true, checkpoint, deferWrites: true });
    expect(restored.messages.map((m) => messageText(m))).toEqual(['first', 'one']);
    expect((await repository.listMessages('s', 'g.a')).map((m) => m.message_id)).toEqual([0, 1]);
  });

  it('a failed transition write is reported by the next write, and by settle()', async () => {
    const repository = new InMemorySessionRepository();
    const session = await open(repository);
    await session.commitStep({ state: {}, transitions: [{ from: null, to: 'a', kind: 'start', reason: 'entry' }] });
    await session.settle();
    // Another writer took transition 1: this writer's append of it fails after its commit point.
    const now = new Date().toISOString();
    await repository.appendTransitions('s', 'g', [
      { seq: 1, from: 'x', to: 'y', kind: 'edge', reason: 'other writer', at: now },
    ]);
    await session.commitStep({ state: { n: 1 }, transitions: [{ from: 'a', to: 'b', kind: 'edge', reason: 'mine' }] });
    await expect(session.settle()).rejects.toBeInstanceOf(SessionConflictError);
    await repository.appendTransitions('s', 'g', [
      { seq: 2, from: 'x', to: 'z', kind: 'edge', reason: 'other writer', at: now },
    ]);
    await session.commitStep({ state: { n: 2 }, transitions: [{ from: 'b', to: 'c', kind: 'edge', reason: 'mine' }] });
    // Not settled: the next step stops before its commit point.
    await expect(session.commitStep({ state: { n: 3 } })).rejects.toBeInstanceOf(SessionConflictError);
    expect((await repository.readMultiAgent('s', 'g'))?.state).toEqual({ n: 2 });
  });
});
