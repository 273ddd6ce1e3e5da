import { describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { listenerDispatchCount, ScriptedModel } from '@skein/core/testing';
import { Swarm } from './index.js';

const swarm = (): Swarm =>
  new Swarm({
    nodes: [
      new Agent({
        name: 'triage',
        model: new ScriptedModel([{ toolUses: [{ name: 'transfer_to_billing', input: {} }] }]),
      }),
      new Agent({ name: 'billing', model: new ScriptedModel(['Refunded.']) }),
    ],
  });

describe('swarm listeners', () => {
  it('that throw do not break the run; their errors go to error listeners', async () => {
    const s = swarm();
    const errors: string[] = [];
    s.on('handoff', () => {
      throw new Error('listener bug');
    });
    s.on('error', (e) => void errors.push(`${e.event.type}: ${(e.error as Error).message}`));
    expect((await s.invoke('charged twice')).status).toBe('completed');
    expect(errors).toEqual(['handoff: listener bug']);
  });

  it('cost no event work when nobody listens', async () => {
    const before = listenerDispatchCount();
    expect((await swarm().invoke('charged twice')).status).toBe('completed');
    expect(listenerDispatchCount()).toBe(before);
    const s = swarm();
    s.on('handoff', () => undefined);
    await s.invoke('charged twice');
    expect(listenerDispatchCount()).toBe(before + 1);
  });
});
