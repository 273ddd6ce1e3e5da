import { describe, expect, it } from 'vitest';
import {
  Agent,
  InMemorySessionRepository,
  RepositorySessionManager,
  messageText,
  tool,
  type SessionWrite,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';
import { z } from 'zod';

/** An in-memory repository with `writeBatch` (applied in order, all or none: a failed batch is undone from a copy). */
class BatchingRepository extends InMemorySessionRepository {
  readonly batches: string[][] = [];
  failNext = false;

  async writeBatch(sessionId: string, writes: readonly SessionWrite[]): Promise<void> {
    this.batches.push(writes.map((w) => w.op));
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the transaction failed');
    }
    for (const w of writes) {
      if (w.op === 'createMessage') await this.createMessage(sessionId, w.agentId, w.message);
      else if (w.op === 'updateAgent') await this.updateAgent(sessionId, w.agent);
      else if (w.op === 'deleteMessages') await this.deleteMessages(sessionId, w.agentId, w.fromMessageId);
      else if (w.op === 'createMultiAgent') await this.createMultiAgent(sessionId, w.multiAgent);
      else if (w.op === 'updateMultiAgent') await this.updateMultiAgent(sessionId, w.multiAgent);
      else if (w.op === 'putNodeEntry') await this.putNodeEntry(sessionId, w.multiAgentId, w.nodeId, w.entry);
      else if (w.op === 'appendTransitions') await this.appendTransitions(sessionId, w.multiAgentId, w.transitions);
      else throw new Error(`unexpected ${w.op}`);
    }
  }
}

const open = async (repository: BatchingRepository) =>
  new RepositorySessionManager({ sessionId: 's', repository }).openMultiAgent('g', 'graph');

describe('MultiAgentSession.commitStep with writeBatch', () => {
  it('stores a step in one batch: member messages and record, state document, node entries, transitions', async () => {
    const repository = new BatchingRepository();
    const session = await open(repository);
    const first = await session.commitStep({
      nodes: [{ id: 'task', entry: { text: 't' } }],
      state: { step: 0 },
      transitions: [{ from: null, to: 'a', kind: 'start', reason: 'entry' }],
    });
    expect(first.map((t) => t.seq)).toEqual([0]);
    expect(repository.batches).toEqual([['createMultiAgent', 'putNodeEntry', 'appendTransitions']]);
    const agent = new Agent({ model: new ScriptedModel(['done']) });
    await session.attachAgent(agent, 'a', { restore: true, deferWrites: true });
    await agent.invoke('work');
    const stored = await session.commitStep({
      nodes: [{ id: 'a', entry: { result: 'done' } }],
      agents: [agent],
      state: { step: 1 },
      transitions: [{ from: 'a', to: null, kind: 'complete', reason: 'done' }],
    });
    expect(stored.map((t) => t.seq)).toEqual([1]);
    expect(repository.batches.at(-1)).toEqual([
      'createMessage',
      'createMessage',
      'updateAgent',
      'updateMultiAgent',
      'putNodeEntry',
      'appendTransitions',
    ]);
    const snapshot = await (await open(repository)).load();
    expect(snapshot?.state).toEqual({ step: 1 });
    expect(snapshot?.transitions.map((t) => t.kind)).toEqual(['start', 'complete']);
    expect((await repository.listMessages('s', 'g.a')).map((m) => messageText(m.message))).toEqual(['work', 'done']);
  });

  it('a failed batch stores nothing and moves nothing on: the next step writes the same message ids', async () => {
    const repository = new BatchingRepository();
    const session = await open(repository);
    await session.commitStep({ state: {} });
    const agent = new Agent({ model: new ScriptedModel(['one', 'two']) });
    await session.attachAgent(agent, 'a', { restore: true, deferWrites: true });
    await agent.invoke('first');
    repository.failNext = true;
    await expect(
      session.commitStep({
        agents: [agent],
        state: { n: 1 },
        transitions: [{ from: 'a', to: 'b', kind: 'edge', reason: 'x' }],
      }),
    ).rejects.toThrow('the transaction failed');
    expect(await repository.listMessages('s', 'g.a')).toEqual([]);
    expect(session.checkpointOf(agent)?.nextMessageId).toBe(0);
    const next = await session.commitStep({
      state: { n: 2 },
      transitions: [{ from: 'a', to: 'b', kind: 'edge', reason: 'y' }],
    });
    expect(next.map((t) => t.seq)).toEqual([0]);
  });

  it('a member turn waiting for an answer: the record with the turn and the removal of its message go in the batch', async () => {
    const repository = new BatchingRepository();
    const session = await open(repository);
    await session.commitStep({ state: {} });
    const refund = tool({
      name: 'refund',
      description: 'refund',
      inputSchema: z.object({}),
      needsApproval: true,
      callback: () => 'refunded',
    });
    const agent = new Agent({
      model: new ScriptedModel([{ toolUses: [{ name: 'refund', input: {}, toolUseId: 't1' }] }, 'ok']),
      tools: [refund],
    });
    await session.attachAgent(agent, 'a', { restore: true, deferWrites: true });
    const result = await agent.invoke('refund please');
    expect(result.stopReason).toBe('interrupt');
    await session.commitStep({ agents: [agent], state: { paused: true } });
    expect(repository.batches.at(-1)).toEqual([
      'createMessage',
      'createMessage',
      'updateAgent',
      'deleteMessages',
      'updateMultiAgent',
    ]);
    expect((await repository.listMessages('s', 'g.a')).map((m) => messageText(m.message))).toEqual(['refund please']);
    const record = await repository.readAgent('s', 'g.a');
    expect(record?._internal_state?.['interrupt_state']).toMatchObject({ stored_from: 1 });
  });
});
