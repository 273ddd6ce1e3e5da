import { describe, expect, it } from 'vitest';
import { Agent, type MultiAgentStreamEvent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from './index.js';

const agent = (name: string, answer: string): Agent =>
  new Agent({ name, model: new ScriptedModel([answer], { chunkSize: 4 }) });
const graph = () =>
  new GraphBuilder()
    .addNode(agent('triage', 'route'), 'triage')
    .addNode(agent('billing', 'billed'), 'billing')
    .addNode(agent('audit', 'audited'), 'audit')
    .addEdge('triage', 'billing')
    .addEdge('triage', 'audit')
    .build();

describe('graph listeners', () => {
  it('get node starts, stops, transitions and the nodes own events with their id, from invoke and stream alike', async () => {
    for (const mode of ['invoke', 'stream'] as const) {
      const g = graph();
      const seen: string[] = [];
      g.on('nodeStart', (e) => void seen.push(`start ${e.nodeId}`));
      g.on('nodeStop', (e) => void seen.push(`stop ${e.nodeId} ${e.result.status}`));
      g.on('transition', (e) => void seen.push(`transition ${e.transition.kind}`));
      const deltas: string[] = [];
      g.on('nodeStream', (e) => {
        if ('type' in e.event && e.event.type === 'textDelta') deltas.push(`${e.nodeId}:${e.event.data}`);
      });
      const streamed: MultiAgentStreamEvent[] = [];
      if (mode === 'invoke') await g.invoke('go');
      else for await (const e of g.stream('go')) streamed.push(e);
      expect(seen.filter((s) => s.startsWith('start')).sort(), mode).toEqual([
        'start audit',
        'start billing',
        'start triage',
      ]);
      expect(seen.filter((s) => s.startsWith('stop')).sort(), mode).toEqual([
        'stop audit completed',
        'stop billing completed',
        'stop triage completed',
      ]);
      expect(seen.filter((s) => s.startsWith('transition')).length, mode).toBeGreaterThan(0);
      expect(
        deltas
          .filter((d) => d.startsWith('billing:'))
          .join('')
          .replace(/billing:/g, ''),
        mode,
      ).toBe('billed');
      if (mode === 'stream') expect(seen.length + deltas.length).toBeLessThanOrEqual(streamed.length);
    }
  });

  it('that throw do not break the run', async () => {
    const g = graph();
    const errors: unknown[] = [];
    g.on('nodeStart', () => {
      throw new Error('listener bug');
    });
    g.on('error', (e) => void errors.push(e.error));
    const result = await g.invoke('go');
    expect(result.status).toBe('completed');
    expect(errors).toHaveLength(3);
  });
});
