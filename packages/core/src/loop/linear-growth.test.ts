import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  NullConversationManager,
  tool,
  type Model,
  type ModelRequest,
  type ModelStreamEvent,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const noop = tool({ name: 'noop', description: 'does nothing', inputSchema: z.object({}), callback: () => 'ok' });

function agentFor(cycles: number): Agent {
  const script = [...Array.from({ length: cycles - 1 }, () => ({ toolUses: [{ name: 'noop' }] })), 'done'];
  return new Agent({
    model: new ScriptedModel(script, { record: false }),
    tools: [noop],
    conversationManager: new NullConversationManager(),
  });
}

async function cost(cycles: number): Promise<{ ms: number; bytes: number }> {
  const agent = agentFor(cycles);
  gc();
  const heap = process.memoryUsage().heapUsed;
  const start = performance.now();
  const result = await agent.invoke('go');
  const ms = performance.now() - start;
  gc();
  gc();
  expect(result.metrics.cycleCount).toBe(cycles);
  return { ms, bytes: process.memoryUsage().heapUsed - heap };
}

describe('the loop grows linearly', () => {
  it('hands the model the live history, never a per-cycle copy', async () => {
    const seen: unknown[] = [];
    const model: Model = {
      modelId: 'spy',
      async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
        seen.push(request.messages);
        yield { messageStart: { role: 'assistant' } };
        if (seen.length < 3) {
          yield {
            contentBlockStart: {
              contentBlockIndex: 0,
              start: { toolUse: { toolUseId: `t${seen.length}`, name: 'noop' } },
            },
          };
          yield { contentBlockStop: { contentBlockIndex: 0 } };
          yield { messageStop: { stopReason: 'tool_use' } };
        } else yield { messageStop: { stopReason: 'end_turn' } };
      },
    };
    const agent = new Agent({ model, tools: [noop] });
    await agent.invoke('go');
    expect(seen).toHaveLength(3);
    expect(seen.every((m) => m === agent.messages)).toBe(true);
  });

  it('4,000 cycles cost about 4x 1,000 cycles in time and retained memory (bounds 8x and 10x; quadratic would be ~16x)', async () => {
    // Best of several runs each: a busy machine slows single runs, not the best one.
    await cost(1000);
    const best = async (cycles: number, runs: number): Promise<{ ms: number; bytes: number }> => {
      const all = [];
      for (let i = 0; i < runs; i++) all.push(await cost(cycles));
      return { ms: Math.min(...all.map((c) => c.ms)), bytes: Math.max(...all.map((c) => c.bytes)) };
    };
    const small = await best(1000, 3);
    const large = await best(4000, 2);
    expect(large.ms / small.ms).toBeLessThan(8);
    expect(large.bytes / Math.max(small.bytes, 1)).toBeLessThan(10);
  });
});
