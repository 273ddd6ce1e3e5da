import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, tool, type Model, type ModelRequest, type ModelStreamEvent } from '../index.js';

// Time and retained memory at 1,000 and 4,000 cycles are measured in bench/src/core-loop.bench.ts.
const noop = tool({ name: 'noop', description: 'does nothing', inputSchema: z.object({}), callback: () => 'ok' });

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
});
