import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AfterInvocationEvent,
  Agent,
  BeforeToolCallEvent,
  InMemorySessionRepository,
  InterruptResponseError,
  RepositorySessionManager,
  tool,
  toolResultsOf,
  toolUsesOf,
  type AgentStreamEvent,
  type Message,
  type Prompt,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

function refundTool(calls: string[]) {
  return tool({
    name: 'issue_refund',
    description: 'Refund an order',
    inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 50,
    callback: ({ orderId, amount }) => {
      calls.push(`${orderId}:${amount}`);
      return `refunded ${amount} EUR on ${orderId}`;
    },
  });
}

const lookup = (calls: string[]) =>
  tool({
    name: 'lookup',
    description: 'Looks an order up',
    inputSchema: z.object({ orderId: z.string() }),
    callback: ({ orderId }) => {
      calls.push(`lookup:${orderId}`);
      return `order ${orderId}: 80 EUR`;
    },
  });

/** No toolUse without its toolResult in the next message. */
function expectPaired(messages: readonly Message[]): void {
  messages.forEach((m, i) => {
    const uses = toolUsesOf(m).map((u) => u.toolUseId);
    if (uses.length === 0) return;
    const next = messages[i + 1];
    expect(next, `message ${i} asks for tools and nothing answers`).toBeDefined();
    expect(
      toolResultsOf(next as Message)
        .map((r) => r.toolUseId)
        .sort(),
    ).toEqual([...uses].sort());
  });
}

describe('tool approval (needsApproval)', () => {
  it('pauses before a refund, keeps the history paired, and runs it once after a yes', async () => {
    const calls: string[] = [];
    const model = new ScriptedModel([
      {
        toolUses: [
          {
            name: 'issue_refund',
            input: { orderId: '42', amount: 80 },
            toolUseId: 'tu1',
          },
        ],
      },
      'Refunded 80 EUR.',
    ]);
    const agent = new Agent({
      name: 'refunds',
      model,
      tools: [refundTool(calls)],
    });
    const first = await agent.invoke('Refund order 42, 80 EUR');
    expect(first.stopReason).toBe('interrupt');
    expect(first.interrupts).toEqual([
      {
        id: 'tu1#approval',
        name: 'approval',
        reason: { tool: 'issue_refund', input: { orderId: '42', amount: 80 } },
        toolUse: {
          toolUseId: 'tu1',
          name: 'issue_refund',
          input: { orderId: '42', amount: 80 },
        },
        source: 'refunds',
      },
    ]);
    expect(first.metrics.interruptCount).toBe(1);
    expect(calls).toEqual([]);
    expect(agent.messages).toHaveLength(1);
    expect(agent.interrupts.map((i) => i.id)).toEqual(['tu1#approval']);

    const second = await agent.invoke([
      {
        interruptResponse: {
          interruptId: 'tu1#approval',
          response: { approved: true },
        },
      },
    ]);
    expect(second.stopReason).toBe('end_turn');
    expect(String(second)).toBe('Refunded 80 EUR.');
    expect(calls).toEqual(['42:80']);
    expect(agent.interrupts).toEqual([]);
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expectPaired(agent.messages);
    expect(toolResultsOf(agent.messages[2] as Message)[0]?.content).toEqual([{ text: 'refunded 80 EUR on 42' }]);
  });

  it('runs without asking when needsApproval says no', async () => {
    const calls: string[] = [];
    const model = new ScriptedModel([
      {
        toolUses: [{ name: 'issue_refund', input: { orderId: '7', amount: 20 } }],
      },
      'done',
    ]);
    const agent = new Agent({ model, tools: [refundTool(calls)] });
    const result = await agent.invoke('refund 20');
    expect(result.stopReason).toBe('end_turn');
    expect(calls).toEqual(['7:20']);
  });

  it('turns a denial into an error result the model reads, and goes on', async () => {
    const calls: string[] = [];
    const model = new ScriptedModel([
      {
        toolUses: [
          {
            name: 'issue_refund',
            input: { orderId: '42', amount: 80 },
            toolUseId: 'tu1',
          },
        ],
      },
      'I could not refund it.',
    ]);
    const agent = new Agent({ model, tools: [refundTool(calls)] });
    const first = await agent.invoke('Refund 80');
    const result = await agent.invoke([
      {
        interruptResponse: {
          interruptId: first.interrupts[0]!.id,
          response: { approved: false, message: 'over the limit' },
        },
      },
    ]);
    expect(result.stopReason).toBe('end_turn');
    expect(calls).toEqual([]);
    const denied = toolResultsOf(agent.messages[2] as Message)[0];
    expect(denied?.status).toBe('error');
    expect(denied?.content).toEqual([
      {
        text: 'The user denied issue_refund: over the limit It was not run; do not call it again unless the user asks.',
      },
    ]);
    expect(model.requests[1]?.messages.at(-1)).toEqual(agent.messages[2]);
  });

  it('runs the free sibling at once, pauses with both approvals, then runs only those, results in the order asked', async () => {
    const calls: string[] = [];
    const model = new ScriptedModel([
      {
        toolUses: [
          {
            name: 'issue_refund',
            input: { orderId: '1', amount: 60 },
            toolUseId: 'a',
          },
          { name: 'lookup', input: { orderId: '2' }, toolUseId: 'b' },
          {
            name: 'issue_refund',
            input: { orderId: '3', amount: 90 },
            toolUseId: 'c',
          },
        ],
      },
      'all done',
    ]);
    const agent = new Agent({
      model,
      tools: [refundTool(calls), lookup(calls)],
    });
    const events: AgentStreamEvent[] = [];
    const stream = agent.stream('refund 1 and 3, look up 2');
    let step = await stream.next();
    for (; !step.done; step = await stream.next()) events.push(step.value);
    const first = step.value;
    expect(first.interrupts.map((i) => i.id)).toEqual(['a#approval', 'c#approval']);
    expect(calls).toEqual(['lookup:2']);
    expect(events.filter((e) => e.type === 'interrupt')).toEqual([
      {
        type: 'interrupt',
        interrupts: first.interrupts,
        path: 'agent',
        depth: 0,
      },
    ]);
    expect(agent.messages).toHaveLength(1);

    await agent.invoke(
      first.interrupts.map((i) => ({
        interruptResponse: { interruptId: i.id, response: { approved: true } },
      })),
    );
    expect(calls).toEqual(['lookup:2', '1:60', '3:90']);
    expectPaired(agent.messages);
    const results = agent.messages.filter((m) => toolResultsOf(m).length > 0);
    expect(results).toHaveLength(1);
    expect(toolResultsOf(results[0] as Message).map((r) => r.toolUseId)).toEqual(['a', 'b', 'c']);
  });

  it('an answer is used once: a later turn reusing the tool use id asks again', async () => {
    const calls: string[] = [];
    const again = {
      toolUses: [
        {
          name: 'issue_refund',
          input: { orderId: '42', amount: 80 },
          toolUseId: 'tu1',
        },
      ],
    };
    const model = new ScriptedModel([again, again, 'done']);
    const agent = new Agent({ model, tools: [refundTool(calls)] });
    const first = await agent.invoke('refund');
    const second = await agent.invoke([
      {
        interruptResponse: {
          interruptId: first.interrupts[0]!.id,
          response: { approved: true },
        },
      },
    ]);
    expect(second.stopReason).toBe('interrupt');
    expect(calls).toEqual(['42:80']);
  });

  it('asks again when the approved action changed before it ran', async () => {
    const calls: string[] = [];
    const model = new ScriptedModel([
      {
        toolUses: [
          {
            name: 'issue_refund',
            input: { orderId: '42', amount: 80 },
            toolUseId: 'tu1',
          },
        ],
      },
      'ok',
    ]);
    const agent = new Agent({ model, tools: [refundTool(calls)] });
    const first = await agent.invoke('refund');
    agent.hooks.addCallback(BeforeToolCallEvent, (e) => {
      (e.toolUse.input as { amount: number }).amount = 800;
    });
    const again = await agent.invoke([
      {
        interruptResponse: {
          interruptId: first.interrupts[0]!.id,
          response: { approved: true },
        },
      },
    ]);
    expect(again.stopReason).toBe('interrupt');
    expect(again.interrupts[0]?.reason).toEqual({
      tool: 'issue_refund',
      input: { orderId: '42', amount: 800 },
    });
    expect(calls).toEqual([]);
  });
});

describe('interrupts raised by tools and hooks', () => {
  it('context.interrupt returns the answer after the resume', async () => {
    const asked: unknown[] = [];
    const confirm = tool({
      name: 'confirm_address',
      description: 'Asks the customer for the address',
      inputSchema: z.object({}),
      callback: (_input, context) => {
        const address = context.interrupt<string>('address', 'Where should the parcel go?');
        asked.push(address);
        return `shipping to ${address}`;
      },
    });
    const model = new ScriptedModel([
      { toolUses: [{ name: 'confirm_address', input: {}, toolUseId: 'x' }] },
      'Shipped.',
    ]);
    const agent = new Agent({ name: 'desk', model, tools: [confirm] });
    const first = await agent.invoke('ship it');
    expect(first.interrupts[0]).toMatchObject({
      id: 'x#address',
      name: 'address',
      reason: 'Where should the parcel go?',
      source: 'desk',
    });
    await agent.invoke([
      {
        interruptResponse: { interruptId: 'x#address', response: '1 Main St' },
      },
    ]);
    expect(asked).toEqual(['1 Main St']);
    expect(toolResultsOf(agent.messages[2] as Message)[0]?.content).toEqual([{ text: 'shipping to 1 Main St' }]);
  });

  it('BeforeToolCallEvent.interrupt asks before any tool runs, and hooks see the pause', async () => {
    const calls: string[] = [];
    const model = new ScriptedModel([
      {
        toolUses: [{ name: 'lookup', input: { orderId: '9' }, toolUseId: 'l' }],
      },
      'ok',
    ]);
    const agent = new Agent({ model, tools: [lookup(calls)] });
    const answers: unknown[] = [];
    const stops: unknown[] = [];
    agent.hooks.addCallback(BeforeToolCallEvent, (e) => {
      answers.push(e.interrupt('may_look', { order: '9' }));
    });
    agent.hooks.addCallback(AfterInvocationEvent, (e) => {
      stops.push(e.stopReason);
    });
    const first = await agent.invoke('look 9 up');
    expect(first.interrupts.map((i) => i.id)).toEqual(['l#may_look']);
    expect(calls).toEqual([]);
    await agent.invoke([{ interruptResponse: { interruptId: 'l#may_look', response: 'yes' } }]);
    expect(answers).toEqual(['yes']);
    expect(calls).toEqual(['lookup:9']);
    expect(stops).toEqual(['interrupt', 'end_turn']);
  });
});

describe('bad resume input', () => {
  async function paused() {
    const model = new ScriptedModel([
      {
        toolUses: [
          {
            name: 'issue_refund',
            input: { orderId: '1', amount: 60 },
            toolUseId: 'a',
          },
          {
            name: 'issue_refund',
            input: { orderId: '2', amount: 70 },
            toolUseId: 'b',
          },
        ],
      },
      'done',
    ]);
    const agent = new Agent({ model, tools: [refundTool([])] });
    await agent.invoke('refund both');
    return agent;
  }

  it('names the pending ids for an unknown id, a missing answer, or nothing pending; nothing changes', async () => {
    const agent = await paused();
    const before = structuredClone(agent.messages);
    const unknown = agent.invoke([{ interruptResponse: { interruptId: 'zzz', response: true } }]);
    await expect(unknown).rejects.toThrow(InterruptResponseError);
    await expect(unknown).rejects.toThrow('No pending interrupt has id "zzz". Pending: "a#approval", "b#approval".');
    const missing = agent.invoke([
      {
        interruptResponse: {
          interruptId: 'a#approval',
          response: { approved: true },
        },
      },
    ]);
    await expect(missing).rejects.toThrow('Answer every pending interrupt at once; missing: "b#approval".');
    const mixed = [
      { interruptResponse: { interruptId: 'a#approval', response: true } },
      { text: 'and hurry' },
    ] as unknown as Prompt;
    await expect(agent.invoke(mixed)).rejects.toThrow('must hold only interruptResponse blocks');
    expect(agent.messages).toEqual(before);
    expect(agent.interrupts.map((i) => i.id)).toEqual(['a#approval', 'b#approval']);

    const fresh = new Agent({ model: new ScriptedModel(['hi']) });
    const err = await fresh
      .invoke([{ interruptResponse: { interruptId: 'a#approval', response: true } }])
      .catch((e: unknown) => e);
    expect(InterruptResponseError.is(err)).toBe(true);
    expect((err as Error).message).toContain('no pending interrupts');
  });

  it('a plain prompt closes what waits: error results saying no answer came, then the prompt proceeds', async () => {
    const agent = await paused();
    const result = await agent.invoke('never mind');
    expect(result.stopReason).toBe('end_turn');
    expect(agent.interrupts).toEqual([]);
    expectPaired(agent.messages);
    const closing = toolResultsOf(agent.messages[2] as Message);
    expect(closing.map((r) => r.status)).toEqual(['error', 'error']);
    expect(closing[0]?.content).toEqual([
      {
        text: 'Tool issue_refund was not run: it waited for an answer (approval) and none came before the next prompt.',
      },
    ]);
    expect(agent.messages[3]).toEqual({
      role: 'user',
      content: [{ text: 'never mind' }],
    });
  });
});

describe('durable interrupts with a session manager', () => {
  it('stores the pause before invoke resolves; a new agent on the same session resumes it', async () => {
    const repo = new InMemorySessionRepository();
    const calls: string[] = [];
    const build = (model: ScriptedModel) =>
      new Agent({
        name: 'refunds',
        model,
        tools: [refundTool(calls)],
        sessionManager: new RepositorySessionManager({
          sessionId: 's1',
          repository: repo,
        }),
      });
    const first = await build(
      new ScriptedModel([
        {
          toolUses: [
            {
              name: 'issue_refund',
              input: { orderId: '42', amount: 80 },
              toolUseId: 'tu1',
            },
          ],
        },
      ]),
    ).invoke('Refund order 42');
    expect(first.stopReason).toBe('interrupt');
    const stored = await repo.listMessages('s1', 'default');
    expect(stored.map((r) => r.message.role)).toEqual(['user']);
    expect((await repo.readAgent('s1', 'default'))?._internal_state?.['interrupt_state']).toMatchObject({
      stored_from: 1,
    });

    const model = new ScriptedModel(['Refunded.']);
    const again = build(model);
    await again.initialize();
    expect(again.interrupts.map((i) => i.id)).toEqual(['tu1#approval']);
    const done = await again.invoke([
      {
        interruptResponse: {
          interruptId: 'tu1#approval',
          response: { approved: true },
        },
      },
    ]);
    expect(String(done)).toBe('Refunded.');
    expect(calls).toEqual(['42:80']);
    const rows = (await repo.listMessages('s1', 'default')).map((r) => r.message);
    expect(rows.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expectPaired(rows);
    expect((await repo.readAgent('s1', 'default'))?._internal_state).toBeUndefined();
  });

  it('completes what a crash left: the pause stored but its message not yet removed, or the resume stored but the record not rewritten', async () => {
    const repo = new InMemorySessionRepository();
    const agent = new Agent({
      model: new ScriptedModel([
        {
          toolUses: [
            {
              name: 'issue_refund',
              input: { orderId: '1', amount: 99 },
              toolUseId: 't',
            },
          ],
        },
      ]),
      tools: [refundTool([])],
      sessionManager: new RepositorySessionManager({
        sessionId: 's',
        repository: repo,
      }),
    });
    const first = await agent.invoke('refund');
    const record = (await repo.readAgent('s', 'default'))!;
    // As a crash between writing the record and removing the message leaves it:
    await repo.createMessage('s', 'default', {
      message: first.message,
      message_id: 1,
      redact_message: null,
      created_at: '',
      updated_at: '',
    });
    const reopened = new Agent({
      model: new ScriptedModel([]),
      tools: [refundTool([])],
      sessionManager: new RepositorySessionManager({
        sessionId: 's',
        repository: repo,
      }),
    });
    await reopened.initialize();
    expect(reopened.messages).toHaveLength(1);
    expect(reopened.interrupts).toHaveLength(1);
    expect((await repo.listMessages('s', 'default')).length).toBe(1);

    // As a crash after the resumed turn was stored but before the record lost its interrupt state:
    const results: Message = {
      role: 'user',
      content: [
        {
          toolResult: {
            toolUseId: 't',
            status: 'success',
            content: [{ text: 'ok' }],
          },
        },
      ],
    };
    await repo.createMessage('s', 'default', {
      message: first.message,
      message_id: 1,
      redact_message: null,
      created_at: '',
      updated_at: '',
    });
    await repo.createMessage('s', 'default', {
      message: results,
      message_id: 2,
      redact_message: null,
      created_at: '',
      updated_at: '',
    });
    await repo.updateAgent('s', record);
    const finished = new Agent({
      model: new ScriptedModel([]),
      tools: [refundTool([])],
      sessionManager: new RepositorySessionManager({
        sessionId: 's',
        repository: repo,
      }),
    });
    await finished.initialize();
    expect(finished.interrupts).toEqual([]);
    expect(finished.messages).toHaveLength(3);
    expectPaired(finished.messages);
  });
});

describe('nested agents (asTool)', () => {
  it('surfaces the inner approval with its path and resumes through the outer agent', async () => {
    const calls: string[] = [];
    const inner = new Agent({
      name: 'refunds',
      model: new ScriptedModel([
        {
          toolUses: [
            {
              name: 'issue_refund',
              input: { orderId: '5', amount: 70 },
              toolUseId: 'in1',
            },
          ],
        },
        'inner done',
      ]),
      tools: [refundTool(calls)],
    });
    const outer = new Agent({
      name: 'triage',
      model: new ScriptedModel([
        {
          toolUses: [
            {
              name: 'refunds',
              input: { input: 'refund 5' },
              toolUseId: 'out1',
            },
          ],
        },
        'outer done',
      ]),
      tools: [inner.asTool()],
    });
    const first = await outer.invoke('help');
    expect(first.interrupts).toMatchObject([{ id: 'in1#approval', source: 'triage/refunds' }]);
    const done = await outer.invoke([
      {
        interruptResponse: {
          interruptId: 'in1#approval',
          response: { approved: true },
        },
      },
    ]);
    expect(String(done)).toBe('outer done');
    expect(calls).toEqual(['5:70']);
    expect(toolResultsOf(outer.messages[2] as Message)[0]?.content).toEqual([{ text: 'inner done' }]);
  });
});
