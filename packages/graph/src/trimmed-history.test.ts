/**
 * Cutting a node agent's history back with a session (a resumed node restarts from its pre-node
 * history; resetOnRevisit) must store it so that a restore gives the same messages, also when the
 * sliding window already removed messages (`removed_message_count` > 0). This needs core's
 * `AgentPersistence.reset` to write the kept messages from id `removedMessageCount`.
 */
import {
  Agent,
  InMemorySessionRepository,
  RepositorySessionManager,
  SlidingWindowConversationManager,
  messageText,
  tool,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { z } from 'zod';
import { expect, it } from 'vitest';
import { GraphBuilder } from './index.js';

const noop = tool({ name: 'noop', description: 'does nothing', inputSchema: z.object({}), callback: () => 'done' });
const worker = (script: ScriptedTurn[]): Agent =>
  new Agent({
    name: 'worker',
    tools: [noop],
    model: new ScriptedModel(script),
    conversationManager: new SlidingWindowConversationManager({ windowSize: 2 }),
  });

it('resetAgent on an agent whose window removed messages restores what was stored', async () => {
  const sm = new RepositorySessionManager({ sessionId: 's', repository: new InMemorySessionRepository() });
  const session = await sm.openMultiAgent('g', 'graph');
  await session.saveState({});
  const live = worker([{ toolUses: [{ name: 'noop', input: {} }] }, 'one']);
  await session.attachAgent(live, 'worker', { restore: true });
  await live.invoke('task');
  expect(live.conversationManager.removedMessageCount).toBeGreaterThan(0);
  await session.resetAgent(live); // what the graph does after cutting a resumed node's history back

  const restored = worker([]);
  await (await sm.openMultiAgent('g', 'graph')).attachAgent(restored, 'worker', { restore: true });
  expect(restored.messages.map((m) => messageText(m))).toEqual(live.messages.map((m) => messageText(m)));
});

it('resetOnRevisit with a session stores the reset history consistently, also after the window removed messages', async () => {
  const repository = new InMemorySessionRepository();
  const sm = new RepositorySessionManager({ sessionId: 's', repository });
  const live = worker([{ toolUses: [{ name: 'noop', input: {} }] }, 'one', 'two']);
  const graph = new GraphBuilder()
    .setId('g')
    .setSessionManager(sm)
    .addNode(live)
    .setEntryPoint('worker')
    .setMaxNodeExecutions(2)
    .addEdge('worker', 'worker', (s) => (s.results['worker']?.executionCount ?? 0) < 2)
    .resetOnRevisit()
    .build();
  expect((await graph.invoke('task')).status).toBe('completed');
  const restored = worker([]);
  await (await sm.openMultiAgent('g', 'graph')).attachAgent(restored, 'worker', { restore: true });
  expect(restored.messages.map((m) => messageText(m))).toEqual(live.messages.map((m) => messageText(m)));
});
