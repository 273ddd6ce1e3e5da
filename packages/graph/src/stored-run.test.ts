import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  InMemorySessionRepository,
  RepositorySessionManager,
  SessionCorruptError,
  tool,
  type JsonObject,
  type ModelRequest,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from './index.js';

// Found by the bad-input fuzz (test/reliability): a stored run whose state document was not valid was
// taken for a finished run and deleted (an unknown status), or crashed the resume halfway with a
// TypeError ("d.waiting.map is not a function", "Cannot read properties of undefined (reading 'id')").

const refundTool = tool({
  name: 'refund',
  description: 'Refunds.',
  inputSchema: z.object({ amount: z.number() }),
  needsApproval: true,
  callback: () => 'refunded',
});
const refundTurn = (request: ModelRequest): ScriptedTurn =>
  request.messages.at(-1)?.content.some((b) => 'toolResult' in b)
    ? 'Refunded.'
    : { toolUses: [{ name: 'refund', input: { amount: 80 } }] };

const graph = (repository: InMemorySessionRepository): ReturnType<GraphBuilder['build']> =>
  new GraphBuilder()
    .addNode(new Agent({ name: 'triage', model: new ScriptedModel(['Refund 80 EUR.'], { loop: true }) }), 'triage')
    .addNode(
      new Agent({ name: 'refund', model: new ScriptedModel([refundTurn], { loop: true }), tools: [refundTool] }),
      'refund',
    )
    .addEdge('triage', 'refund')
    .setSessionManager(new RepositorySessionManager({ sessionId: 's', repository }))
    .build();

async function paused(): Promise<{ repository: InMemorySessionRepository; interruptId: string }> {
  const repository = new InMemorySessionRepository();
  const result = await graph(repository).invoke('I want my money back');
  return { repository, interruptId: result.interrupts![0]!.id };
}

describe('resuming a stored graph run that is not valid', () => {
  it.each<[string, (state: JsonObject) => void, RegExp]>([
    ['an unknown status', (st) => (st['status'] = 'exploded'), /its status is "exploded", not one of/],
    [
      'waiting a number',
      (st) => (st['waiting'] = 5),
      /its waiting is not a list of \{ nodeId, sources, messages\?, state\?, checkpoint\? \}/,
    ],
    [
      'a pause without interrupts',
      (st) => ((st['paused'] as JsonObject)['refund'] = { sources: ['triage'], stage: 'node' }),
      /its paused is not an object/,
    ],
    [
      'a pause of a node the graph does not have',
      (st) => ((st['paused'] as JsonObject)['ghost'] = (st['paused'] as JsonObject)['refund']!),
      /names node\(s\) "ghost", which this graph does not have/,
    ],
    ['a version from the future', (st) => (st['version'] = 99), /version 99; this @skein\/graph reads version 1/],
  ])('%s is a SessionCorruptError naming it, and the stored run stays as it was', async (_label, change, message) => {
    const { repository, interruptId } = await paused();
    const stored = (await repository.readMultiAgent('s', 'graph'))!;
    const state = structuredClone(stored.state);
    change(state);
    await repository.updateMultiAgent('s', { ...stored, state });
    const before = JSON.stringify(await repository.readMultiAgent('s', 'graph'));
    const error = await graph(repository)
      .invoke([{ interruptResponse: { interruptId, response: { approved: true } } }])
      .catch((e: unknown) => e);
    expect(SessionCorruptError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/^The stored run of graph graph in session s is not valid: /);
    expect((error as Error).message).toMatch(message);
    expect(JSON.stringify(await repository.readMultiAgent('s', 'graph'))).toBe(before);
  });

  it('a node entry without a valid result is a SessionCorruptError naming the node', async () => {
    const { repository, interruptId } = await paused();
    await repository.putNodeEntry('s', 'graph', 'triage', { result: 5, order: [0] });
    await expect(
      graph(repository).invoke([{ interruptResponse: { interruptId, response: { approved: true } } }]),
    ).rejects.toThrow(/the entry of node "triage" has no valid result/);
  });

  it('a valid stored run still resumes to the end', async () => {
    const { repository, interruptId } = await paused();
    expect(
      (await graph(repository).invoke([{ interruptResponse: { interruptId, response: { approved: true } } }])).status,
    ).toBe('completed');
  });
});
