import { describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { Swarm } from './index.js';

describe('swarm listeners', () => {
  it('get node events, transitions and a handoff event per transfer, from invoke and stream alike', async () => {
    for (const mode of ['invoke', 'stream'] as const) {
      const triage = new Agent({
        name: 'triage',
        model: new ScriptedModel([{ toolUses: [{ name: 'transfer_to_billing', input: {} }] }]),
      });
      const billing = new Agent({ name: 'billing', model: new ScriptedModel(['Refunded.']) });
      const swarm = new Swarm({ nodes: [triage, billing] });
      const seen: string[] = [];
      swarm.on('nodeStart', (e) => void seen.push(`start ${e.nodeId}`));
      swarm.on('handoff', (e) => void seen.push(`handoff ${e.from}->${e.to}`));
      swarm.on('transition', (e) => void seen.push(`transition ${e.transition.kind}`));
      swarm.on('nodeStop', (e) => void seen.push(`stop ${e.nodeId}`));
      if (mode === 'invoke') await swarm.invoke('charged twice');
      else for await (const e of swarm.stream('charged twice')) void e;
      expect(seen, mode).toEqual([
        'transition start',
        'start triage',
        'stop triage',
        'transition handoff',
        'handoff triage->billing',
        'start billing',
        'stop billing',
        'transition complete',
      ]);
    }
  });
});
