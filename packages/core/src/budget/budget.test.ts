import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  BudgetWarningEvent,
  ConfigurationError,
  ModelThrottledError,
  ModelTransientError,
  RunBudget,
  tool,
  toolBudgetScope,
  toolUsesOf,
  toolResultsOf,
  type AgentStreamEvent,
  type BudgetLimit,
  type Message,
} from '../index.js';
import { ScriptedModel, type ScriptedTurn } from '../testing/index.js';

const echo = tool({
  name: 'echo',
  description: 'echoes',
  inputSchema: z.object({ n: z.number() }),
  callback: ({ n }) => `n=${n}`,
});

/** `n` turns that each call `echo` (10 input + 5 output tokens each by default), then a final answer. */
function toolTurns(
  n: number,
  extra: Partial<{ usage: { inputTokens: number; outputTokens: number }; delayMs: number }> = {},
): ScriptedTurn[] {
  return [
    ...Array.from({ length: n }, (_, i) => ({ toolUses: [{ name: 'echo', input: { n: i } }], ...extra })),
    { text: 'done', ...extra },
  ];
}

/** Every toolUse in the history has its result. */
function paired(messages: readonly Message[]): boolean {
  const uses = messages.flatMap((m) => toolUsesOf(m).map((u) => u.toolUseId));
  const results = new Set(messages.flatMap((m) => toolResultsOf(m).map((r) => r.toolUseId)));
  return uses.every((id) => results.has(id));
}

describe('budget on an agent', () => {
  it.each<[BudgetLimit, number, number, number]>([
    // limit, max, model calls made, spent when stopped (15 tokens per call: 10 in, 5 out)
    ['totalTokens', 40, 3, 45],
    ['inputTokens', 25, 3, 30],
    ['outputTokens', 10, 2, 10],
    ['modelCalls', 2, 2, 2],
  ])('stops before the next model call once %s (%d) is reached', async (limit, max, calls, spent) => {
    const model = new ScriptedModel(toolTurns(10));
    const agent = new Agent({ model, tools: [echo] });
    const result = await agent.invoke('go', { budget: { [limit]: max } });
    expect(result.stopReason).toBe('budget_exceeded');
    expect(result.budgetExceeded).toEqual({ limit, max, spent });
    expect(model.callCount).toBe(calls);
    expect(paired(agent.messages)).toBe(true);
    expect(agent.messages.at(-1)?.role).toBe('user'); // stopped after the tool results, before the next call
    expect(result.usage?.spend.modelCalls).toBe(calls);
    expect(result.usage?.spend.totalTokens).toBe(calls * 15);
  });

  it('stops on costUsd, priced per model id, and names a missing price', async () => {
    const prices = { priced: { inputPerMTok: 1_000_000, outputPerMTok: 2_000_000 } }; // 10 in + 5 out = $20 per call
    const model = new ScriptedModel(toolTurns(10), { modelId: 'priced' });
    const agent = new Agent({ model, tools: [echo] });
    const result = await agent.invoke('go', { budget: { costUsd: 50, prices } });
    expect(result.budgetExceeded).toEqual({ limit: 'costUsd', max: 50, spent: 60 });
    expect(result.usage?.spend.costUsd).toBe(60);
    const unpriced = new Agent({ model: new ScriptedModel(['hi'], { modelId: 'other' }) });
    await expect(unpriced.invoke('go', { budget: { costUsd: 1, prices } })).rejects.toThrow(ConfigurationError);
    await expect(
      new Agent({ model: new ScriptedModel(['hi']) }).invoke('go', { budget: { costUsd: 1 } }),
    ).rejects.toThrow(/budget\.prices has no price for model "scripted"/);
  });

  it('refuses tools past toolCalls with an error result and stops after that turn', async () => {
    let ran = 0;
    const counted = tool({
      name: 'echo',
      description: 'echoes',
      inputSchema: z.object({ n: z.number() }),
      callback: ({ n }) => (ran++, `n=${n}`),
    });
    const model = new ScriptedModel([
      {
        toolUses: [
          { name: 'echo', input: { n: 1 } },
          { name: 'echo', input: { n: 2 } },
          { name: 'echo', input: { n: 3 } },
        ],
      },
      'done',
    ]);
    const agent = new Agent({ model, tools: [counted], toolExecutor: 'sequential' });
    const result = await agent.invoke('go', { budget: { toolCalls: 2 } });
    expect(ran).toBe(2);
    expect(result.stopReason).toBe('budget_exceeded');
    expect(result.budgetExceeded?.limit).toBe('toolCalls');
    // The turn waits, out of the history, with the results of the two uses that ran.
    expect(agent.messages.map((m) => m.role)).toEqual(['user']);
    expect(agent.interrupts).toEqual([]);
    expect(model.callCount).toBe(1);
    // Resumed without a prompt and a larger budget: only the refused use runs, then the model answers.
    const resumed = await agent.invoke(undefined, { budget: { toolCalls: 5 } });
    expect(ran).toBe(3);
    expect(String(resumed)).toBe('done');
    const results = toolResultsOf(agent.messages[2] as Message);
    expect(results.map((r) => [r.status, JSON.stringify(r.content)])).toEqual([
      ['success', '[{"text":"n=1"}]'],
      ['success', '[{"text":"n=2"}]'],
      ['success', '[{"text":"n=3"}]'],
    ]);
    expect(model.callCount).toBe(2);
  });

  it('a new prompt after a budget stop closes the refused uses with an error result saying why they did not run', async () => {
    let ran = 0;
    const counted = tool({
      name: 'echo',
      description: 'echo',
      inputSchema: z.object({ n: z.number() }),
      callback: ({ n }) => (ran++, `n=${n}`),
    });
    const model = new ScriptedModel([
      {
        toolUses: [
          { name: 'echo', input: { n: 1 } },
          { name: 'echo', input: { n: 2 } },
        ],
      },
      'other',
    ]);
    const agent = new Agent({ model, tools: [counted], toolExecutor: 'sequential' });
    await agent.invoke('go', { budget: { toolCalls: 1 } });
    await agent.invoke('something else');
    expect(ran).toBe(1);
    const results = toolResultsOf(agent.messages[2] as Message);
    expect(results.map((r) => r.status)).toEqual(['success', 'error']);
    expect(JSON.stringify(results[1])).toContain('stopped at its budget');
  });

  it('stops on wallMs at the next safe point, never cutting a call short', async () => {
    const model = new ScriptedModel(toolTurns(10, { delayMs: 60 }));
    const agent = new Agent({ model, tools: [echo] });
    const result = await agent.invoke('go', { budget: { wallMs: 30 } });
    expect(result.budgetExceeded?.limit).toBe('wallMs');
    expect(model.callCount).toBe(1); // the call that crossed the limit ran to its end, and its tool too
    expect(toolResultsOf(agent.messages.at(-1) as Message)).toHaveLength(1);
    // The spend it reports is past the limit that stopped it (no claim on how fast the machine is).
    expect(result.budgetExceeded?.max).toBe(30);
    expect(result.usage?.spend.wallMs).toBeGreaterThanOrEqual(result.budgetExceeded?.spent ?? Number.NaN);
  });

  it('continues where it stopped when invoked again without a prompt and a larger budget', async () => {
    const model = new ScriptedModel(toolTurns(3));
    const agent = new Agent({ model, tools: [echo] });
    const first = await agent.invoke('go', { budget: { modelCalls: 2 } });
    expect(first.stopReason).toBe('budget_exceeded');
    const second = await agent.invoke(undefined, { budget: { modelCalls: 10 } });
    expect(second.stopReason).toBe('end_turn');
    expect(String(second)).toBe('done');
    expect(model.callCount).toBe(4);
    expect(agent.messages.filter((m) => m.role === 'user' && m.content.some((b) => 'text' in b))).toHaveLength(1); // the prompt once
  });

  it('warns once per limit at the threshold, as a stream event and a hook event', async () => {
    const model = new ScriptedModel(toolTurns(8));
    const agent = new Agent({ model, tools: [echo] });
    const hooked: string[] = [];
    agent.hooks.addCallback(BudgetWarningEvent, (e) => void hooked.push(`${e.warning.limit}@${e.warning.spent}`));
    const listened: string[] = [];
    agent.on('budgetWarning', (e) => listened.push(e.warning.limit));
    const streamed: AgentStreamEvent[] = [];
    const gen = agent.stream('go', { budget: { totalTokens: 200, modelCalls: 20, warnAt: 0.5 } });
    let step = await gen.next();
    for (; !step.done; step = await gen.next()) if (step.value.type === 'budgetWarning') streamed.push(step.value);
    expect(step.value.stopReason).toBe('end_turn');
    expect(hooked).toEqual(['totalTokens@105']); // 7 calls of 15 tokens cross 50% of 200; 9 calls stay under 10 model calls
    expect(listened).toEqual(['totalTokens']);
    expect(streamed).toHaveLength(1);
  });

  it('does no budget work and reports no usage tree without a budget', async () => {
    const result = await new Agent({ model: new ScriptedModel(['hi']) }).invoke('go');
    expect(result.usage).toBeUndefined();
    expect(result.budgetExceeded).toBeUndefined();
  });
});

describe('one budget across an agent and the agents it uses as tools', () => {
  it('draws the nested agent from the same budget and counts each call once in the tree', async () => {
    const expertModel = new ScriptedModel([{ text: 'expert answer', usage: { inputTokens: 100, outputTokens: 50 } }]);
    const expert = new Agent({ name: 'expert', model: expertModel });
    const lead = new Agent({
      name: 'lead',
      model: new ScriptedModel([{ toolUses: [{ name: 'expert', input: { input: 'help' } }] }, 'thanks']),
      tools: [expert.asTool()],
    });
    const budget = new RunBudget({ totalTokens: 1000 });
    const result = await lead.invoke('go', { budget });
    expect(result.stopReason).toBe('end_turn');
    expect(budget.spent.totalTokens).toBe(15 + 150 + 15);
    expect(budget.spent.toolCalls).toBe(1);
    const tree = result.usage;
    expect(tree?.name).toBe('lead');
    expect(tree?.spend.totalTokens).toBe(180); // its own calls plus the nested agent's, once
    const toolNode = tree?.children.find((c) => c.kind === 'tool');
    expect(toolNode?.name).toBe('expert');
    expect(toolNode?.children[0]).toMatchObject({
      name: 'expert',
      kind: 'agent',
      spend: { totalTokens: 150, modelCalls: 1 },
    });
  });

  it('stops the outer agent when the nested one spends the budget', async () => {
    const expert = new Agent({
      name: 'expert',
      model: new ScriptedModel([{ text: 'long answer', usage: { inputTokens: 10, outputTokens: 500 } }]),
    });
    const lead = new Agent({
      name: 'lead',
      model: new ScriptedModel([{ toolUses: [{ name: 'expert', input: { input: 'help' } }] }, 'thanks']),
      tools: [expert.asTool()],
    });
    const result = await lead.invoke('go', { budget: { outputTokens: 100 } });
    expect(result.stopReason).toBe('budget_exceeded');
    expect(result.budgetExceeded).toEqual({ limit: 'outputTokens', max: 100, spent: 505 });
    expect(paired(lead.messages)).toBe(true);
  });

  it('shares one RunBudget across invocations (a per-conversation budget)', async () => {
    const agent = new Agent({ model: new ScriptedModel(['a', 'b', 'c']) });
    const budget = new RunBudget({ modelCalls: 2 });
    expect((await agent.invoke('1', { budget })).stopReason).toBe('end_turn');
    expect((await agent.invoke('2', { budget })).stopReason).toBe('end_turn');
    const third = await agent.invoke('3', { budget });
    expect(third.stopReason).toBe('budget_exceeded');
    expect(budget.spent.modelCalls).toBe(2);
    expect(budget.root.tree().children).toHaveLength(3);
  });

  it('rejects limits that are not numbers of 0 or more', () => {
    expect(() => new RunBudget({ totalTokens: -1 })).toThrow(/budget.totalTokens must be a finite number/);
  });
});

describe('limits given to an invocation inside a run tree that has a budget', () => {
  it('apply to that subtree and still draw from the enclosing budget', async () => {
    const inner = new Agent({ name: 'inner', model: new ScriptedModel(toolTurns(10)), tools: [echo] });
    const research = tool({
      name: 'research',
      description: 'asks the inner agent with a budget of its own',
      inputSchema: z.object({ q: z.string() }),
      callback: async ({ q }, context) => {
        const r = await inner.invoke(q, { invocationState: context.invocationState, budget: { modelCalls: 3 } });
        return `${r.stopReason} after ${r.usage?.spend.modelCalls} calls`;
      },
    });
    const outer = new Agent({
      name: 'outer',
      model: new ScriptedModel([{ toolUses: [{ name: 'research', input: { q: 'x' } }] }, 'ok']),
      tools: [research],
    });
    const budget = new RunBudget({ modelCalls: 100 });
    const result = await outer.invoke('go', { budget });
    const answer = toolResultsOf(outer.messages[2] as Message)[0];
    expect(JSON.stringify(answer?.content)).toContain('budget_exceeded after 3 calls'); // the inner limit applied
    expect(result.stopReason).toBe('end_turn');
    expect(budget.spent.modelCalls).toBe(5); // and the outer budget saw the inner calls: 2 + 3
    expect(budget.spent.toolCalls).toBe(1 + 3);
  });

  it('stop at the enclosing limit even when their own is larger', async () => {
    const inner = new Agent({ name: 'inner', model: new ScriptedModel(toolTurns(10)), tools: [echo] });
    const research = tool({
      name: 'research',
      description: 'asks the inner agent',
      inputSchema: z.object({ q: z.string() }),
      callback: async ({ q }, context) =>
        String(
          (await inner.invoke(q, { invocationState: context.invocationState, budget: { modelCalls: 50 } })).stopReason,
        ),
    });
    const outer = new Agent({
      name: 'outer',
      model: new ScriptedModel([{ toolUses: [{ name: 'research', input: { q: 'x' } }] }, 'ok']),
      tools: [research],
    });
    const result = await outer.invoke('go', { budget: { modelCalls: 4 } });
    expect(JSON.stringify(toolResultsOf(outer.messages[2] as Message)[0]?.content)).toContain('budget_exceeded');
    expect(result.stopReason).toBe('budget_exceeded');
    expect(result.usage?.spend.modelCalls).toBe(4);
  });
});

describe('structured output under a budget', () => {
  it('says the budget stopped it instead of blaming the model, and asks nothing more', async () => {
    const model = new ScriptedModel([
      { toolUses: [{ name: 'echo', input: { n: 1 } }] },
      { toolUses: [{ name: 'Person', input: { name: 'Ada' } }] },
    ]);
    const agent = new Agent({ model, tools: [echo] });
    const Person = z.object({ name: z.string() }).meta({ title: 'Person' });
    await expect(agent.structuredOutput(Person, 'who?', { budget: { modelCalls: 1 } })).rejects.toThrow(
      /No Person: the run stopped before the model answered because the run's modelCalls budget of 1 is spent/,
    );
    expect(model.callCount).toBe(1);
    expect(agent.messages.filter((m) => m.role === 'user' && m.content.some((b) => 'text' in b))).toHaveLength(1); // no re-ask appended
  });
});

describe('invocation state the caller owns', () => {
  it("is never marked: an unrelated run sharing the object does not draw from another run's budget", async () => {
    const shared = { tenant: 'acme' };
    const slow = new Agent({ model: new ScriptedModel(toolTurns(3, { delayMs: 10 })), tools: [echo] });
    const other = new Agent({ model: new ScriptedModel(toolTurns(3, { delayMs: 10 })), tools: [echo] });
    const [limited, free] = await Promise.all([
      slow.invoke('go', { budget: { modelCalls: 1 }, invocationState: shared }),
      other.invoke('go', { invocationState: shared }),
    ]);
    expect(limited.stopReason).toBe('budget_exceeded');
    expect(free.stopReason).toBe('end_turn');
    expect(free.usage).toBeUndefined();
  });

  it('leaves a tool of yours to pass the budget on with toolBudgetScope(context)', async () => {
    const inner = new Agent({ name: 'inner', model: new ScriptedModel(['inner answer']) });
    const ask = tool({
      name: 'ask',
      description: 'asks the inner agent',
      inputSchema: z.object({ q: z.string() }),
      callback: async ({ q }, context) =>
        String(await inner.invoke(q, { invocationState: context.invocationState, budget: toolBudgetScope(context) })),
    });
    const outer = new Agent({
      name: 'outer',
      model: new ScriptedModel([{ toolUses: [{ name: 'ask', input: { q: 'x' } }] }, 'ok']),
      tools: [ask],
    });
    const result = await outer.invoke('go', { budget: { modelCalls: 10 }, invocationState: { tenant: 'acme' } });
    expect(result.usage?.spend.modelCalls).toBe(3);
    expect(result.usage?.children[0]).toMatchObject({
      name: 'ask',
      kind: 'tool',
      children: [{ name: 'inner', kind: 'agent', spend: { modelCalls: 1 } }],
    });
  });
});

describe('budget and retried model calls', () => {
  const fast = { transientInitialDelayMs: 1, initialDelayMs: 1, maxDelayMs: 2 };
  const reset = (): ScriptedTurn => ({ error: new ModelTransientError('connection reset') });

  it('counts every attempt as a model call: a retry past modelCalls is not made', async () => {
    const model = new ScriptedModel([reset(), reset(), 'answer']);
    const agent = new Agent({ model, retryStrategy: fast });
    const stopped = await agent.invoke('go', { budget: { modelCalls: 2 } });
    expect(stopped.stopReason).toBe('budget_exceeded');
    expect(stopped.budgetExceeded).toEqual({ limit: 'modelCalls', max: 2, spent: 2 });
    expect(model.callCount).toBe(2);
    expect(agent.messages.every((m) => m.role === 'user')).toBe(true); // nothing of the failed attempts
    const enough = new Agent({ model: new ScriptedModel([reset(), reset(), 'answer']), retryStrategy: fast });
    const done = await enough.invoke('go', { budget: { modelCalls: 3 } });
    expect(String(done)).toBe('answer');
    expect(done.usage?.spend.modelCalls).toBe(3);
  });

  it("does not wait out a server's retry-after that would pass wallMs", async () => {
    const model = new ScriptedModel([
      { error: new ModelThrottledError('slow down', { retryAfterMs: 30_000 }) },
      'answer',
    ]);
    const agent = new Agent({ model });
    const result = await agent.invoke('go', { budget: { wallMs: 5_000 } });
    expect(result.stopReason).toBe('budget_exceeded');
    expect(result.budgetExceeded?.limit).toBe('wallMs');
    expect(model.callCount).toBe(1);
  });
});
