import { Agent, InMemorySessionRepository, RepositorySessionManager, tool, type JsonValue } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Swarm, type SwarmResult } from './index.js';

// A swarm nobody watches passes no member events on (and makes no `nodeStream` events); one whose
// events a listener or a stream() reader takes passes them all. Both must run and store the same.

const lookup = tool({
  name: 'lookup',
  description: 'looks an invoice up',
  inputSchema: z.object({ invoice: z.string() }),
  callback: ({ invoice }) => `${invoice}: paid twice`,
});

function team(): { swarm: Swarm; agents: Agent[]; repository: InMemorySessionRepository } {
  const triage = new Agent({
    name: 'triage',
    tools: [lookup],
    model: new ScriptedModel([
      { text: 'checking', toolUses: [{ name: 'lookup', input: { invoice: 'INV-42' } }] },
      { toolUses: [{ name: 'transfer_to_billing', input: { message: 'refund', context: { invoice: 'INV-42' } } }] },
    ]),
  });
  const billing = new Agent({ name: 'billing', model: new ScriptedModel(['Refunded INV-42.']) });
  const repository = new InMemorySessionRepository();
  const sessionManager = new RepositorySessionManager({ sessionId: 's', repository });
  return {
    swarm: new Swarm({ nodes: [triage, billing], sessionManager, id: 'desk' }),
    agents: [triage, billing],
    repository,
  };
}

type Watch = 'nobody' | 'listener' | 'stream';

async function run(watch: Watch): Promise<unknown> {
  const { swarm, agents, repository } = team();
  let seen = 0;
  if (watch === 'listener') swarm.on('nodeStream', () => void seen++);
  let result: SwarmResult;
  if (watch === 'stream') {
    const gen = swarm.stream('I was charged twice');
    let step = await gen.next();
    for (; !step.done; step = await gen.next()) if (step.value.type === 'nodeStream') seen++;
    result = step.value;
  } else {
    result = await swarm.invoke('I was charged twice');
  }
  if (watch !== 'nobody') expect(seen).toBeGreaterThan(10);
  return timeless({
    status: result.status,
    text: result.text,
    nodeHistory: result.nodeHistory,
    sharedContext: result.sharedContext,
    results: Object.fromEntries(Object.entries(result.results).map(([id, r]) => [id, [r.status, r.text, r.usage]])),
    transitions: result.transitions,
    histories: agents.map((a) => a.messages),
    stored: {
      state: (await repository.readMultiAgent('s', 'desk'))?.state,
      nodes: await repository.readNodeEntries('s', 'desk'),
      transitions: await repository.readTransitions('s', 'desk'),
    },
  });
}

/** The JSON of `value` without what differs from run to run (times, durations, run ids). */
function timeless(value: unknown): JsonValue {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) =>
      ['at', 'created_at', 'updated_at', 'runId'].includes(key) || /Ms$/.test(key) ? undefined : v,
    ),
  ) as JsonValue;
}

describe('a swarm nobody watches', () => {
  it('runs and stores the same as one whose events a listener or a stream() reader takes', async () => {
    const quiet = await run('nobody');
    expect(await run('listener')).toEqual(quiet);
    expect(await run('stream')).toEqual(quiet);
    expect(quiet).toMatchObject({ status: 'completed', text: 'Refunded INV-42.', nodeHistory: ['triage', 'billing'] });
    expect(JSON.stringify(quiet)).toContain('INV-42: paid twice');
  });
});
