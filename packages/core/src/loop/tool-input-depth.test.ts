import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, InMemorySessionRepository, RepositorySessionManager, tool, toolResultsOf } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

// Found by the bad-input fuzz (test/reliability): a tool input nested 10,000 deep parsed, but storing
// the turn overflowed the stack, so the invocation failed instead of giving the model an error result.

describe('a tool input nested too deep', () => {
  it('becomes an error tool result the model reads; the tool does not run and the turn is stored', async () => {
    const ran: unknown[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up.',
      inputSchema: z.object({ id: z.string() }).loose(),
      callback: (input) => (ran.push(input), 'ok'),
    });
    const deep = `{"id": "1", "deep": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const repository = new InMemorySessionRepository();
    const model = new ScriptedModel([{ toolUses: [{ name: 'lookup', rawInput: deep, toolUseId: 't1' }] }, 'Done.'], {
      inputChunkSize: 100_000,
    });
    const agent = new Agent({
      model,
      tools: [lookup],
      sessionManager: new RepositorySessionManager({ sessionId: 's', repository }),
    });
    expect(String(await agent.invoke('go'))).toBe('Done.');
    expect(ran).toEqual([]);
    const result = agent.messages.flatMap(toolResultsOf).find((r) => r.toolUseId === 't1');
    expect(result?.status).toBe('error');
    expect(JSON.stringify(result?.content)).toMatch(/nested more than 100 levels deep/);
    expect(await repository.listMessages('s', 'default')).toHaveLength(4);
  });

  it('takes an input nested 100 levels deep', async () => {
    const ran: unknown[] = [];
    const echo = tool({
      name: 'echo',
      description: 'Echoes.',
      inputSchema: z.object({ v: z.unknown() }),
      callback: (input) => (ran.push(input), 'ok'),
    });
    const rawInput = `{"v": ${'['.repeat(99)}${']'.repeat(99)}}`;
    const agent = new Agent({
      model: new ScriptedModel([{ toolUses: [{ name: 'echo', rawInput }] }, 'Done.']),
      tools: [echo],
    });
    await agent.invoke('go');
    expect(ran).toHaveLength(1);
  });
});
