import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AfterInvocationEvent,
  AfterModelCallEvent,
  AfterToolCallEvent,
  Agent,
  AgentInitializedEvent,
  BeforeInvocationEvent,
  BeforeModelCallEvent,
  BeforeToolCallEvent,
  HookRegistry,
  MessageAddedEvent,
  tool,
  type HookProvider,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const echo = tool({
  name: 'echo',
  description: 'echo',
  inputSchema: z.object({ text: z.string() }),
  callback: ({ text }) => text,
});
const shout = tool({
  name: 'shout',
  description: 'shout',
  inputSchema: z.object({ text: z.string() }),
  callback: ({ text }) => text.toUpperCase(),
});

describe('hooks', () => {
  it('raises every event of an invocation in lifecycle order, each carrying the agent', async () => {
    const agent = new Agent({
      name: 'my_agent',
      model: new ScriptedModel([{ toolUses: [{ name: 'echo', input: { text: 'hi' } }] }, 'done', 'again']),
      tools: [echo],
    });
    const seen: string[] = [];
    for (const cls of [
      AgentInitializedEvent,
      BeforeInvocationEvent,
      AfterInvocationEvent,
      MessageAddedEvent,
      BeforeModelCallEvent,
      AfterModelCallEvent,
      BeforeToolCallEvent,
      AfterToolCallEvent,
    ]) {
      agent.hooks.addCallback(cls, (e) => {
        expect(e.agent).toBe(agent);
        seen.push(cls.name);
      });
    }
    await agent.invoke('go');
    await agent.invoke('again');
    expect(seen).toEqual([
      'AgentInitializedEvent',
      'BeforeInvocationEvent',
      'MessageAddedEvent',
      'BeforeModelCallEvent',
      'AfterModelCallEvent',
      'MessageAddedEvent',
      'BeforeToolCallEvent',
      'AfterToolCallEvent',
      'MessageAddedEvent',
      'BeforeModelCallEvent',
      'AfterModelCallEvent',
      'MessageAddedEvent',
      'AfterInvocationEvent',
      'BeforeInvocationEvent',
      'MessageAddedEvent',
      'BeforeModelCallEvent',
      'AfterModelCallEvent',
      'MessageAddedEvent',
      'AfterInvocationEvent',
    ]);
    expect(seen.filter((s) => s === 'AgentInitializedEvent')).toHaveLength(1);
  });

  it('runs Before* callbacks in registration order and After* in reverse, awaiting async ones', async () => {
    const order: string[] = [];
    const agent = new Agent({ model: new ScriptedModel(['ok']) });
    agent.hooks.addCallback(BeforeInvocationEvent, async () => {
      await new Promise((r) => setTimeout(r, 5));
      order.push('before A');
    });
    agent.hooks.addCallback(BeforeInvocationEvent, () => void order.push('before B'));
    agent.hooks.addCallback(AfterInvocationEvent, () => void order.push('after A'));
    agent.hooks.addCallback(AfterInvocationEvent, async () => {
      await new Promise((r) => setTimeout(r, 5));
      order.push('after B');
    });
    await agent.invoke('x');
    expect(order).toEqual(['before A', 'before B', 'after B', 'after A']);
  });

  it('registers providers and removes callbacks', async () => {
    const log: string[] = [];
    class LoggingHook implements HookProvider {
      registerHooks(registry: HookRegistry): void {
        registry.addCallback(BeforeInvocationEvent, (e) => void log.push(`start ${e.agent.name}`));
        registry.addCallback(AfterInvocationEvent, (e) => void log.push(`end ${e.agent.name}`));
      }
    }
    const agent = new Agent({
      name: 'my_agent',
      model: new ScriptedModel(['a', 'b', 'c']),
      hooks: [new LoggingHook()],
    });
    await agent.invoke('x');
    expect(log).toEqual(['start my_agent', 'end my_agent']);
    const removeAll = agent.hooks.addHook(new LoggingHook());
    const remove = agent.hooks.addCallback(BeforeInvocationEvent, () => void log.push('extra'));
    remove();
    removeAll();
    await agent.invoke('y');
    expect(log).toEqual(['start my_agent', 'end my_agent', 'start my_agent', 'end my_agent']);
  });

  it('removes the callbacks of providers that a provider registers, and lets providers ask what is registered', async () => {
    const log: string[] = [];
    const inner: HookProvider = {
      registerHooks: (r) => void r.addCallback(BeforeInvocationEvent, () => void log.push('inner')),
    };
    let sawAfter: boolean | undefined;
    const outer: HookProvider = {
      registerHooks: (r) => {
        r.addCallback(AfterInvocationEvent, () => void log.push('outer'));
        r.addHook(inner);
        sawAfter = r.has(AfterInvocationEvent);
      },
    };
    const agent = new Agent({ model: new ScriptedModel(['a', 'b']) });
    const remove = agent.hooks.addHook(outer);
    expect(sawAfter).toBe(true);
    await agent.invoke('x');
    expect(log).toEqual(['inner', 'outer']);
    remove();
    expect(agent.hooks.has(BeforeInvocationEvent)).toBe(false);
    await agent.invoke('y');
    expect(log).toEqual(['inner', 'outer']);
  });

  it('lets BeforeToolCallEvent swap the tool or cancel it', async () => {
    const uses = [
      { name: 'echo', input: { text: 'swap' } },
      { name: 'echo', input: { text: 'cancel' } },
      { name: 'echo', input: { text: 'plain' } },
    ];
    const agent = new Agent({ model: new ScriptedModel([{ toolUses: uses }, 'ok']), tools: [echo] });
    agent.hooks.addCallback(BeforeToolCallEvent, (e) => {
      const text = (e.toolUse.input as { text: string }).text;
      if (text === 'swap') e.selectedTool = shout;
      if (text === 'cancel') e.cancel = 'Not allowed today.';
    });
    await agent.invoke('go');
    const results = agent.messages[2]?.content.map((b) => ('toolResult' in b ? b.toolResult : undefined));
    expect(results?.map((r) => [r?.status, r?.content])).toEqual([
      ['success', [{ text: 'SWAP' }]],
      ['error', [{ text: 'Not allowed today.' }]],
      ['success', [{ text: 'plain' }]],
    ]);
  });

  it('lets AfterToolCallEvent replace the result the model sees', async () => {
    const model = new ScriptedModel([{ toolUses: [{ name: 'echo', input: { text: 'secret' } }] }, 'ok']);
    const agent = new Agent({ model, tools: [echo] });
    agent.hooks.addCallback(AfterToolCallEvent, (e) => {
      e.result = { ...e.result, content: [{ text: '[redacted]' }] };
    });
    await agent.invoke('go');
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('[redacted]');
  });

  it('AfterModelCallEvent.retry discards the response and calls the model again', async () => {
    const model = new ScriptedModel(['bad answer', 'good answer']);
    const agent = new Agent({ model });
    agent.hooks.addCallback(AfterModelCallEvent, (e) => {
      if (e.stopResponse && JSON.stringify(e.stopResponse.message).includes('bad')) e.retry = true;
    });
    const result = await agent.invoke('q');
    expect(String(result)).toBe('good answer');
    expect(agent.messages).toHaveLength(2);
    expect(result.metrics.modelCallCount).toBe(2);
  });

  it('reports errors to AfterInvocationEvent and still fires it', async () => {
    const agent = new Agent({ model: new ScriptedModel([{ error: new Error('provider down') }]), retryStrategy: null });
    let error: unknown;
    agent.hooks.addCallback(AfterInvocationEvent, (e) => {
      error = e.error;
    });
    await expect(agent.invoke('q')).rejects.toThrow('provider down');
    expect((error as Error).message).toBe('provider down');
  });
});

describe('hook failures while an invocation ends', () => {
  it("keep the invocation's own error (the hook's rides along as `suppressed`) and never leave the agent running", async () => {
    const agent = new Agent({
      model: new ScriptedModel([{ error: new Error('model exploded') }, 'fine']),
      retryStrategy: null,
    });
    const remove = agent.hooks.addCallback(AfterInvocationEvent, () => {
      throw new Error('sync hook failed');
    });
    const error = await agent.invoke('q').catch((e: unknown) => e);
    expect((error as Error).message).toBe('model exploded');
    expect(((error as { suppressed?: Error[] }).suppressed ?? []).map((e) => e.message)).toEqual(['sync hook failed']);
    expect(agent.isRunning).toBe(false);
    remove();
    await expect(agent.invoke('again')).resolves.toMatchObject({ stopReason: 'end_turn' });
  });

  it('surface a hook failure when the invocation itself succeeded', async () => {
    const agent = new Agent({ model: new ScriptedModel(['ok', 'ok']) });
    const remove = agent.hooks.addCallback(AfterInvocationEvent, () => {
      throw new Error('persist failed');
    });
    await expect(agent.invoke('q')).rejects.toThrow('persist failed');
    remove();
    await expect(agent.invoke('q2')).resolves.toBeDefined();
  });

  it('a failing MessageAddedEvent hook during the repair of an interrupted tool call does not wedge the agent', async () => {
    const hang = tool({
      name: 'hang',
      description: 'hangs',
      inputSchema: z.object({}),
      callback: () => new Promise<string>(() => undefined),
    });
    const agent = new Agent({ model: new ScriptedModel([{ toolUses: [{ name: 'hang' }] }, 'later']), tools: [hang] });
    let failing = false;
    agent.hooks.addCallback(MessageAddedEvent, () => {
      if (failing) throw new Error('store down');
    });
    const consume = async (): Promise<void> => {
      for await (const event of agent.stream('q')) {
        if (event.type === 'toolStart') {
          failing = true;
          break;
        }
      }
    };
    await expect(consume()).rejects.toThrow('store down');
    expect(agent.isRunning).toBe(false);
    failing = false;
    expect(agent.messages.at(-1)?.content[0]).toMatchObject({ toolResult: { status: 'error' } });
  });
});
