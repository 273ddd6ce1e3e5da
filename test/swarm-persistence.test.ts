import {
  Agent,
  BeforeNodeCallEvent,
  InMemorySessionRepository,
  RepositorySessionManager,
  tool,
  type JsonObject,
  type Message,
  type SessionMessage,
  type SessionMultiAgent,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { handoff, removeAllTools } from '@skein/handoffs';
import { Swarm } from '@skein/swarm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** An in-memory repository that adds up the JSON size of every write into the current bucket. */
class CountingRepository extends InMemorySessionRepository {
  buckets: number[] = [0];
  calls: Record<string, number> = {};
  /** Throws (a simulated crash) on the state write that would commit this many turns. */
  crashAtTurns: number | undefined;

  #count(method: string, payload: unknown): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    const last = this.buckets.length - 1;
    this.buckets[last] = (this.buckets[last] ?? 0) + JSON.stringify(payload).length;
  }

  override async createMultiAgent(sessionId: string, doc: SessionMultiAgent): Promise<void> {
    this.#count('createMultiAgent', doc);
    return super.createMultiAgent(sessionId, doc);
  }

  override async updateMultiAgent(sessionId: string, doc: SessionMultiAgent): Promise<void> {
    if (this.crashAtTurns !== undefined && doc.state['turns'] === this.crashAtTurns)
      throw new Error('simulated crash before the state write');
    this.#count('updateMultiAgent', doc);
    return super.updateMultiAgent(sessionId, doc);
  }

  /** Throws (a simulated crash) on the n-th transition write (1-based). */
  crashAtTransition: number | undefined;
  #transitionWrites = 0;

  override async appendTransitions(...args: Parameters<InMemorySessionRepository['appendTransitions']>): Promise<void> {
    if (this.crashAtTransition !== undefined && ++this.#transitionWrites === this.crashAtTransition)
      throw new Error('simulated crash before the history write');
    return super.appendTransitions(...args);
  }

  override async putNodeEntry(
    sessionId: string,
    multiAgentId: string,
    nodeId: string,
    entry: JsonObject,
  ): Promise<void> {
    this.#count('putNodeEntry', entry);
    return super.putNodeEntry(sessionId, multiAgentId, nodeId, entry);
  }

  override async createMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    this.#count('createMessage', message);
    return super.createMessage(sessionId, agentId, message);
  }
}

const N = 20;

/** A chain of N agents, each saying a paragraph and handing off to the next; the last answers. */
function chain(): Agent[] {
  const agents: Agent[] = [];
  const paragraph = 'Here is what I found about the request so far, in some detail. '.repeat(8);
  for (let i = N - 1; i >= 0; i--) {
    const next = agents[0];
    const turn: ScriptedTurn = next
      ? {
          text: `agent ${i}: ${paragraph}`,
          toolUses: [{ name: `transfer_to_agent_${i + 1}`, toolUseId: `h${i}`, input: {} }],
        }
      : { text: 'the last agent answers' };
    agents.unshift(
      new Agent({
        model: new ScriptedModel([turn]),
        name: `agent_${i}`,
        retryStrategy: null,
        ...(next ? { handoffs: [next] } : {}),
      }),
    );
  }
  return agents;
}

describe('swarm persistence cost', () => {
  it('bytes written per handoff do not grow with the conversation (20-agent chain, full history)', async () => {
    const repository = new CountingRepository();
    const swarm = Swarm.fromAgent(chain()[0] as Agent, {
      sessionManager: new RepositorySessionManager({ sessionId: 'g', repository }),
      id: 'chain',
    });
    const gen = swarm.stream('Route this request.');
    let step = await gen.next();
    for (; !step.done; step = await gen.next()) {
      // One bucket per node: its run, its turn and result entries, the transfer and the state save.
      if (step.value.type === 'nodeStart') repository.buckets.push(0);
    }
    expect(step.value.status).toBe('completed');
    expect(step.value.handoffCount).toBe(N - 1);
    const perNode = repository.buckets.slice(1);
    expect(perNode).toHaveLength(N);
    const second = perNode[1] as number;
    const last = perNode[N - 2] as number;
    // The conversation the last handoff passes on is ~19x the second's; what is written is not.
    expect(last).toBeLessThan(2 * second);
    // No per-member message rows: a member's history derives from the turns.
    expect(repository.calls['createMessage']).toBeUndefined();
  });
});

describe('swarm resume replays the committed turns', () => {
  const lookup = { name: 'lookup_order', toolUseId: 'l1', input: { id: '42' } };
  const scripts = (): Record<'triage' | 'billing' | 'refund', ScriptedTurn[]> => ({
    triage: [
      { toolUses: [lookup] },
      {
        text: 'Billing will sort this out.',
        toolUses: [
          {
            name: 'transfer_to_billing_agent',
            toolUseId: 'h1',
            input: { message: 'double charge', context: { order_id: '42' } },
          },
        ],
      },
    ],
    billing: [
      {
        text: 'A refund is needed.',
        toolUses: [{ name: 'transfer_to_refund_agent', toolUseId: 'h2', input: { reason: 'duplicate' } }],
      },
    ],
    refund: ['Refunded.'],
  });

  /** triage -> billing through removeAllTools; billing -> refund with a typed handoff and nested history. */
  function team(
    repository: InMemorySessionRepository,
    crashBefore?: string,
  ): { swarm: Swarm; models: Record<string, ScriptedModel>; agents: Record<string, Agent> } {
    const s = scripts();
    const models = {
      triage: new ScriptedModel(s.triage),
      billing: new ScriptedModel(s.billing),
      refund: new ScriptedModel(s.refund),
    };
    const lookupTool = tool({
      name: 'lookup_order',
      description: 'Looks an order up.',
      inputSchema: z.object({ id: z.string() }),
      callback: ({ id }, ctx) => {
        ctx.agent.state.set('order', id);
        return `order ${id}: charged twice`;
      },
    });
    const refund = new Agent({ model: models.refund, name: 'Refund agent', retryStrategy: null });
    const billing = new Agent({
      model: models.billing,
      name: 'Billing agent',
      retryStrategy: null,
      handoffs: [handoff(refund, { inputType: z.object({ reason: z.string() }) })],
    });
    const triage = new Agent({
      model: models.triage,
      name: 'Triage agent',
      retryStrategy: null,
      tools: [lookupTool],
      handoffs: [handoff(billing, { inputFilter: removeAllTools })],
    });
    const swarm = Swarm.fromAgent(triage, {
      sessionManager: new RepositorySessionManager({ sessionId: 'r', repository }),
      id: 'support',
      nestHandoffHistory: true,
    });
    if (crashBefore) {
      swarm.hooks.addCallback(BeforeNodeCallEvent, (e) => {
        if (e.nodeId === crashBefore) throw new Error(`simulated crash before ${crashBefore}`);
      });
    }
    return { swarm, models, agents: { triage, billing, refund } };
  }

  async function uninterrupted(): Promise<{ billing: Message[]; refund: Message[] }> {
    const t = team(new InMemorySessionRepository());
    const result = await t.swarm.invoke('I was charged twice');
    expect(result.status).toBe('completed');
    return {
      billing: t.models.billing?.requests[0]?.messages ?? [],
      refund: t.models.refund?.requests[0]?.messages ?? [],
    };
  }

  it('after a crash before the last agent, it receives exactly what it receives in an uninterrupted run', async () => {
    const expected = await uninterrupted();
    expect(JSON.stringify(expected.refund)).toContain('<CONVERSATION HISTORY>');
    expect(JSON.stringify(expected.billing)).not.toContain('toolUse');

    const repository = new InMemorySessionRepository();
    await expect(team(repository, 'Refund agent').swarm.invoke('I was charged twice')).rejects.toThrow(
      'simulated crash',
    );
    const resumed = team(repository);
    const result = await resumed.swarm.invoke('ignored: resuming');
    expect(result.status).toBe('completed');
    expect(result.nodeHistory).toEqual(['Triage agent', 'Billing agent', 'Refund agent']);
    expect(result.sharedContext).toEqual({ 'Triage agent': { order_id: '42' } });
    expect(result.accumulatedUsage.totalTokens).toBe(60);
    expect(resumed.models.triage?.requests).toHaveLength(0);
    expect(resumed.models.billing?.requests).toHaveLength(0);
    expect(resumed.models.refund?.requests[0]?.messages).toEqual(expected.refund);
    // Members that finished a turn get back their history and state as of that turn.
    expect(resumed.agents.billing?.messages.at(-1)?.content[0]).toMatchObject({ toolResult: { toolUseId: 'h2' } });
    expect(resumed.agents.triage?.state.get()).toEqual({ order: '42' });
  });

  it('a turn written just before a crash, but not committed, is ignored and written again', async () => {
    const expected = await uninterrupted();
    const repository = new CountingRepository();
    // The crash hits the state write that would commit billing's turn (turns: 2).
    repository.crashAtTurns = 2;
    await expect(team(repository).swarm.invoke('I was charged twice')).rejects.toThrow(
      'simulated crash before the state write',
    );
    expect(Object.keys(await repository.readNodeEntries('r', 'support'))).toContain('run.turn.000001');
    expect((await repository.readMultiAgent('r', 'support'))?.state).toMatchObject({
      turns: 1,
      current: 'Billing agent',
    });

    repository.crashAtTurns = undefined;
    const resumed = team(repository);
    const result = await resumed.swarm.invoke('ignored: resuming');
    expect(result.status).toBe('completed');
    expect(result.nodeHistory).toEqual(['Triage agent', 'Billing agent', 'Refund agent']);
    expect(resumed.models.triage?.requests).toHaveLength(0);
    expect(resumed.models.billing?.requests[0]?.messages).toEqual(expected.billing);
    expect(resumed.models.refund?.requests[0]?.messages).toEqual(expected.refund);
    // The handoff of the uncommitted turn was never appended: the history does not double it.
    expect(result.transitions.map((t) => t.kind)).toEqual(['start', 'handoff', 'resume', 'handoff', 'complete']);
    expect((await repository.readTransitions('r', 'support')).map((t) => t.kind)).toEqual([
      'start',
      'handoff',
      'resume',
      'handoff',
      'complete',
    ]);
  });

  it('a crash between the committed state and the history leaves transitions that the resume appends, once', async () => {
    for (const cut of [1, 2, 3]) {
      const repository = new CountingRepository();
      repository.crashAtTransition = cut;
      await expect(team(repository).swarm.invoke('I was charged twice'), `cut at transition ${cut}`).rejects.toThrow(
        'simulated crash before the history write',
      );
      repository.crashAtTransition = undefined;
      const result = await team(repository).swarm.invoke('ignored: resuming');
      const kinds = (await repository.readTransitions('r', 'support')).map((t) => t.kind);
      expect(result.status).toBe('completed');
      // Always begins with start; each committed step once; the resume after the cut.
      expect(kinds[0], `cut at transition ${cut}`).toBe('start');
      expect(
        kinds.filter((k) => k !== 'resume'),
        `cut at transition ${cut}`,
      ).toEqual(['start', 'handoff', 'handoff', 'complete']);
      // The task is stored with the first state document, before its start transition: every cut resumes.
      expect(
        kinds.filter((k) => k === 'resume'),
        `cut at transition ${cut}`,
      ).toHaveLength(1);
    }
  });

  it('lastResult gives a new process the stored result of the finished run without calling a model', async () => {
    const repository = new CountingRepository();
    const first = await team(repository).swarm.invoke('I was charged twice');
    const later = team(repository);
    const stored = await later.swarm.lastResult();
    expect(stored?.status).toBe('completed');
    expect(stored?.text).toBe('Refunded.');
    expect(stored?.nodeHistory).toEqual(first.nodeHistory);
    expect(stored?.transitions).toEqual(first.transitions);
    expect(stored?.sharedContext).toEqual(first.sharedContext);
    expect(Object.values(later.models).every((m) => m.requests.length === 0)).toBe(true);
    expect(await team(new CountingRepository()).swarm.lastResult()).toBeUndefined();
  });

  it('lastResult completes the history when the process died between committing the end and appending its transition', async () => {
    const repository = new CountingRepository();
    repository.crashAtTransition = 4; // start, handoff, handoff, complete
    await expect(team(repository).swarm.invoke('I was charged twice')).rejects.toThrow(
      'simulated crash before the history write',
    );
    repository.crashAtTransition = undefined;
    const stored = await team(repository).swarm.lastResult();
    expect(stored?.status).toBe('completed');
    expect(stored?.transitions.map((t) => t.kind)).toEqual(['start', 'handoff', 'handoff', 'complete']);
  });
});
