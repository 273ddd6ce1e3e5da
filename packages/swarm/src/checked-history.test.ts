import {
  Agent,
  ConfigurationError,
  InMemorySessionRepository,
  MultiAgentError,
  RepositorySessionManager,
  tool,
  type Message,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { handoff } from '@skein/handoffs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Swarm } from './index.js';

// Members are handed the conversation without checking each message again (a cost that grew with
// the conversation on every handoff); so every message is checked where it enters the run instead.

const refund = tool({
  name: 'refund',
  description: 'refunds an order',
  inputSchema: z.object({ order: z.string() }),
  needsApproval: true,
  callback: ({ order }) => `refunded ${order}`,
});

function desk(repository: InMemorySessionRepository, filter?: (data: never) => unknown): Swarm {
  const billing = new Agent({
    name: 'billing',
    tools: [refund],
    retryStrategy: null,
    model: new ScriptedModel(
      [
        (r) =>
          JSON.stringify(r.messages.at(-1)).includes('refunded 42')
            ? 'Refunded.'
            : { toolUses: [{ name: 'refund', input: { order: '42' } }] },
      ],
      { loop: true },
    ),
  });
  const triage = new Agent({
    name: 'triage',
    retryStrategy: null,
    model: new ScriptedModel([{ text: 'To billing.', toolUses: [{ name: 'transfer_to_billing', input: {} }] }]),
    handoffs: [filter ? handoff(billing, { inputFilter: filter as never }) : billing],
  });
  return new Swarm({
    id: 'desk',
    nodes: [triage, billing],
    sessionManager: new RepositorySessionManager({ sessionId: 's', repository }),
  });
}

describe('the conversation a swarm hands on', () => {
  it('a task message that is not a message is refused before anything is stored', async () => {
    const repository = new InMemorySessionRepository();
    const bad = [{ role: 'system', content: [{ text: 'be nice' }] }] as unknown as Message[];
    await expect(desk(repository).invoke(bad)).rejects.toThrow(ConfigurationError);
    await expect(desk(repository).invoke(bad)).rejects.toThrow(/The swarm task: message\[0\] has role "system"/);
    expect(await repository.readNodeEntries('s', 'desk').catch(() => ({}))).toEqual({});
  });

  it('a stored turn holding a malformed message is refused when the run is read back', async () => {
    const repository = new InMemorySessionRepository();
    const first = await desk(repository).invoke('I want a refund');
    expect(first.status).toBe('interrupted');
    const entries = await repository.readNodeEntries('s', 'desk');
    const turn = entries['run.turn.000000'] as { newItems: unknown[] };
    turn.newItems[0] = { role: 'assistant', content: 'not blocks' };
    await repository.putNodeEntry('s', 'desk', 'run.turn.000000', turn as never);
    const answers = (first.interrupts ?? []).map((i) => ({
      interruptResponse: { interruptId: i.id, response: { approved: true } },
    }));
    const resumed = desk(repository).invoke(answers);
    await expect(resumed).rejects.toThrow(MultiAgentError);
    await expect(desk(repository).invoke(answers)).rejects.toThrow(
      /turn 0 holds a malformed message: message\[0\]\.content must be an array/,
    );
  });

  it("an input filter of the user's that returns a malformed message fails the transfer, naming it", async () => {
    const repository = new InMemorySessionRepository();
    const filter = (data: { inputHistory: Message[] }) => ({
      inputHistory: data.inputHistory,
      preHandoffItems: [{ role: 'tool', content: [] }],
      newItems: [],
    });
    const result = await desk(repository, filter as never).invoke('I want a refund');
    expect(result.status).toBe('failed');
    expect(result.failureReason).toMatch(
      /The input filter of transfer_to_billing failed: preHandoffItems\[0\] has role "tool"/,
    );
  });

  it('a run read back from the store hands its conversation on and completes', async () => {
    const repository = new InMemorySessionRepository();
    const first = await desk(repository).invoke('I want a refund');
    const answers = (first.interrupts ?? []).map((i) => ({
      interruptResponse: { interruptId: i.id, response: { approved: true } },
    }));
    const done = await desk(repository).invoke(answers);
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Refunded.');
    expect(done.results['billing']?.text).toBe('Refunded.');
  });
});
