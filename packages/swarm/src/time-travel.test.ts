import {
  Agent,
  ConfigurationError,
  InMemorySessionRepository,
  RepositorySessionManager,
  tool,
  type Message,
  type Model,
  type ModelRequest,
  type NodeTransition,
  type SessionRepository,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Swarm, type SwarmResult } from './index.js';

type Member = 'triage' | 'refund';
const lastText = (r: ModelRequest): string =>
  (r.messages.at(-1)?.content ?? []).map((b) => ('text' in b ? b.text : '')).join('');
/** The refund tool answered (a transfer's own tool result does not count). */
const answered = (r: ModelRequest): boolean =>
  r.messages.some((m) => m.content.some((b) => 'toolResult' in b && JSON.stringify(b).includes('refunded')));

function desk(
  repository: SessionRepository,
  sessionId: string,
  effects: { refunds: number },
  models: Partial<Record<Member, Model>> = {},
): Swarm {
  const model = (answer: (r: ModelRequest) => ScriptedTurn) => new ScriptedModel([answer], { loop: true });
  const scripted: Record<Member, Model> = {
    triage: model((r) =>
      /refund/i.test(lastText(r))
        ? {
            text: 'To refunds.',
            toolUses: [{ name: 'transfer_to_refund', input: { message: 'wants a refund', context: { order: '42' } } }],
          }
        : 'I can help with that myself.',
    ),
    refund: model((r) =>
      answered(r) ? 'Refunded order 42.' : { toolUses: [{ name: 'refund', input: { order: '42' } }] },
    ),
  };
  const refund = tool({
    name: 'refund',
    description: 'refunds an order',
    inputSchema: z.object({ order: z.string() }),
    needsApproval: true,
    callback: ({ order }) => `refunded ${order} (${++effects.refunds})`,
  });
  return new Swarm({
    id: 'desk',
    nodes: [
      new Agent({ name: 'triage', model: models.triage ?? scripted.triage, retryStrategy: null }),
      new Agent({ name: 'refund', model: models.refund ?? scripted.refund, tools: [refund], retryStrategy: null }),
    ],
    sessionManager: new RepositorySessionManager({ sessionId, repository }),
  });
}

const approve = (swarm: Swarm, ids: { id: string }[]) =>
  swarm.invoke(ids.map((i) => ({ interruptResponse: { interruptId: i.id, response: { approved: true } } })));
const path = (ts: readonly NodeTransition[]): string[] =>
  ts.filter((t) => t.kind !== 'resume').map((t) => `${t.from}>${t.to}:${t.kind}`);

async function finish(swarm: Swarm): Promise<SwarmResult> {
  const done = await swarm.lastResult();
  if (done) return done;
  const waiting = await swarm.pendingInterrupts();
  let result = await (waiting.length > 0 ? approve(swarm, waiting) : swarm.invoke('continue'));
  while (result.status === 'interrupted' && result.interrupts) result = await approve(swarm, result.interrupts);
  return result;
}

describe('time travel on a swarm', () => {
  it('lists steps, shows each step, and replays every fork to the original result without refunding again', async () => {
    const repository = new InMemorySessionRepository();
    const effects = { refunds: 0 };
    const swarm = desk(repository, 'c1', effects);
    const result = await finish(swarm);
    expect(result.status).toBe('completed');
    const first = await swarm.invoke('I want a refund for order 42');
    const original = first.interrupts ? await approve(swarm, first.interrupts) : first;
    expect(original.status).toBe('completed');
    expect(effects.refunds).toBe(1);
    const history = (await swarm.history()).filter((h) => h.run === 2);
    expect(history[0]).toMatchObject({ current: 'triage', turns: 0, status: 'executing' });
    expect(history.some((h) => h.paused === 'refund')).toBe(true);
    expect(history.at(-1)).toMatchObject({ status: 'completed', nodeHistory: ['triage', 'refund'] });
    const handoff = history.find((h) => h.transitions.some((t) => t.kind === 'handoff'))!;
    const at = await swarm.stateAt(handoff.step);
    expect(at.sharedContext).toEqual({ triage: { order: '42' } });
    expect(at.current).toBe('refund');
    expect(JSON.stringify(at.members['triage']?.messages)).toContain('transfer_to_refund');
    for (const { step } of history) {
      const fork = await swarm.fork({ step, to: `replay-${step}` });
      const replay = desk(repository, fork.sessionId, effects, {
        triage: fork.recording.model('triage'),
        refund: fork.recording.model('refund'),
      });
      fork.recording.guard(replay.nodes);
      const replayed = await finish(replay);
      expect(replayed.status, `fork at step ${step}`).toBe('completed');
      expect(replayed.results['refund']?.text ?? replayed.results['triage']?.text, `fork at step ${step}`).toBe(
        original.results['refund']?.text,
      );
      expect(path(replayed.transitions).slice(-3), `fork at step ${step}`).toEqual(
        path(original.transitions).slice(-3),
      );
    }
    expect(effects.refunds).toBe(1);
  });

  it('an edited shared context reaches the next member; next runs another member; bad edits are refused', async () => {
    const repository = new InMemorySessionRepository();
    const effects = { refunds: 0 };
    const swarm = desk(repository, 'c2', effects);
    const paused = await swarm.invoke('I want a refund for order 42');
    expect(paused.status).toBe('interrupted');
    const handoff = (await swarm.history()).find((h) => h.transitions.some((t) => t.kind === 'handoff'))!;
    await swarm.fork({ step: handoff.step, to: 'ctx', edit: { sharedContext: { triage: { order: '7' } } } });
    const forked = desk(repository, 'ctx', effects);
    expect((await forked.stateAt(handoff.step)).sharedContext).toEqual({ triage: { order: '7' } });
    await swarm.fork({ step: handoff.step, to: 'back', edit: { next: 'triage', task: 'Just a question' } });
    const back = desk(repository, 'back', effects);
    const again = await finish(back);
    expect(again.status).toBe('completed');
    const resumed = again.transitions.find((t) => t.kind === 'resume');
    expect(resumed?.to).toBe('triage');
    expect((await back.stateAt(handoff.step)).task).toEqual([{ role: 'user', content: [{ text: 'Just a question' }] }]);
    await expect(swarm.fork({ step: handoff.step, to: 'bad', edit: { next: 'nobody' } })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    await expect(
      swarm.fork({
        step: handoff.step,
        to: 'bad',
        edit: { lastMessage: { refund: { role: 'robot' } as unknown as Message } },
      }),
    ).rejects.toThrow(/lastMessage.refund must be/);
    expect(await repository.readSession('bad')).toBeUndefined();
    // The original still waits for its approval.
    expect((await swarm.pendingInterrupts()).map((i) => i.name)).toEqual(['approval']);
  });

  it('a fork edit naming a member the swarm does not have is refused as a graph refuses a node, naming the members', async () => {
    const repository = new InMemorySessionRepository();
    const swarm = desk(repository, 'c3', { refunds: 0 });
    await swarm.invoke('I want a refund for order 42');
    const fork = swarm.fork({ step: 0, to: 'bad', edit: { results: { nobody: 'x' } } });
    await expect(fork).rejects.toThrow(
      'fork({ edit }): results names member "nobody", which this swarm does not have (members: triage, refund).',
    );
    expect(await repository.readSession('bad')).toBeUndefined();
  });
});
