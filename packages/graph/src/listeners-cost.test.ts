import { describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { listenerDispatchCount, ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from './index.js';

const agent = (name: string, answer: string): Agent => new Agent({ name, model: new ScriptedModel([answer]) });
const graph = () =>
  new GraphBuilder()
    .addNode(agent('triage', 'route'), 'triage')
    .addNode(agent('billing', 'billed'), 'billing')
    .addEdge('triage', 'billing')
    .build();

describe('graph listeners', () => {
  it('cost no event work when nobody listens, and only the heard type when one type is', async () => {
    const before = listenerDispatchCount();
    expect((await graph().invoke('go')).status).toBe('completed');
    expect(listenerDispatchCount()).toBe(before);
    const g = graph();
    g.on('nodeStop', () => undefined);
    await g.invoke('go');
    expect(listenerDispatchCount()).toBe(before + 2);
  });
});
