import { Agent, isMultiAgent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { defaultTransfer, Swarm, TransferInput } from './index.js';

const agent = (name: string, script: ConstructorParameters<typeof ScriptedModel>[0] = []): Agent =>
  new Agent({ model: new ScriptedModel(script), name, retryStrategy: null });

describe('Swarm', () => {
  it('is a multi-agent orchestrator usable as a Graph node', () => {
    const swarm = new Swarm({ nodes: [agent('A')] });
    expect(isMultiAgent(swarm)).toBe(true);
    expect(swarm.id).toBe('default_swarm');
    expect(swarm.nodeIds).toEqual(['A']);
  });

  it('refuses an orchestrator among its nodes, saying a Swarm runs agents', () => {
    const inner = new Swarm({ nodes: [agent('A')] });
    expect(() => new Swarm({ nodes: [agent('B'), inner as unknown as Agent] })).toThrow(
      /nodes\[1\] is not an Agent; a Swarm runs agents/,
    );
  });

  it('default transfers take an optional message and JSON context', () => {
    const h = defaultTransfer(
      new Agent({ model: new ScriptedModel([]), name: 'Billing agent', description: 'Invoices.' }),
    );
    expect(h.toolName).toBe('transfer_to_billing_agent');
    expect(h.toolDescription).toContain('Invoices.');
    expect(h.inputJsonSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' }, context: { type: 'object' } },
    });
    expect(TransferInput.safeParse({}).success).toBe(true);
    expect(TransferInput.safeParse({ message: 3 }).success).toBe(false);
  });

  it('a single agent that answers completes in one node', async () => {
    const result = await new Swarm({ nodes: [agent('Solo', ['Hello!'])] }).invoke([{ text: 'Hi' }]);
    expect(result).toMatchObject({
      status: 'completed',
      nodeHistory: ['Solo'],
      handoffCount: 0,
      text: 'Hello!',
      finalNodeId: 'Solo',
    });
  });

  it('refuses a second run while one is running', async () => {
    const swarm = new Swarm({ nodes: [agent('Slow', [{ text: 'done', delayMs: 30 }])] });
    const first = swarm.invoke('one');
    await expect(swarm.invoke('two')).rejects.toThrow(/already running/);
    expect((await first).status).toBe('completed');
  });
});
