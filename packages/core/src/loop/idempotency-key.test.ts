import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { tool } from '../tools/tool.js';

/** An agent whose `pay` tool records the key of every call; `hang` makes the first call wait until cancelled. */
function payingAgent(script: ConstructorParameters<typeof ScriptedModel>[0], hang = false) {
  const keys: string[] = [];
  let calls = 0;
  const pay = tool({
    name: 'pay',
    description: 'pay',
    inputSchema: z.object({ order: z.string() }),
    callback: async (_input, context) => {
      keys.push(context.idempotencyKey);
      if (hang && calls++ === 0) await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
      return 'paid';
    },
  });
  const agent = new Agent({ model: new ScriptedModel(script), tools: [pay], retryStrategy: null });
  return { agent, keys };
}

const payFor = (order: string) => ({ toolUses: [{ name: 'pay', input: { order } }] });

describe('context.idempotencyKey', () => {
  it('is the same for a call asked again after its first attempt was cut, and different for the next call', async () => {
    const { agent, keys } = payingAgent([payFor('42'), payFor('42'), payFor('42'), 'done'], true);
    const running = agent.invoke('pay order 42');
    await new Promise((resolve) => setTimeout(resolve, 20));
    agent.cancel();
    expect((await running).stopReason).toBe('cancelled');
    await agent.invoke(undefined);
    // The cut attempt and the re-ask share a key; the third call, after one that succeeded, is a new call.
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('differs for other input, for a new prompt, and between identical calls of one turn', async () => {
    const { agent, keys } = payingAgent([
      {
        toolUses: [
          { name: 'pay', input: { order: '1' } },
          { name: 'pay', input: { order: '1' } },
        ],
      },
      payFor('2'),
      'done',
      payFor('2'),
      'done again',
    ]);
    await agent.invoke('pay');
    await agent.invoke('pay again');
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(4);
  });

  it('does not depend on the order of the input keys', async () => {
    const { agent, keys } = payingAgent([{ toolUses: [{ name: 'pay', input: { order: '7' } }] }, 'done']);
    const other = payingAgent([{ toolUses: [{ name: 'pay', input: { order: '7' } }] }, 'done']);
    await agent.invoke('pay');
    await other.agent.invoke('pay');
    expect(keys[0]).toBe(other.keys[0]);
  });

  it('is scoped: the same call of another agent, or with another idempotencyScope, has another key', async () => {
    const a = payingAgent([payFor('9'), 'done']);
    const b = payingAgent([payFor('9'), 'done']);
    await a.agent.invoke('pay', { idempotencyScope: 'run-1/node-a' });
    await b.agent.invoke('pay', { idempotencyScope: 'run-1/node-b' });
    expect(a.keys[0]).not.toBe(b.keys[0]);
  });
});
