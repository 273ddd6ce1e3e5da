import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Agent, tool, type AgentResult, type AgentStreamEvent, type Guardrail, type OutputSubject } from '../index.js';
import { listenerDispatchCount, ScriptedModel } from '../testing/index.js';
import { placeOf } from '../events/event-place.js';

/** True when the nested agent spied on was handed its caller's stream (its events are made and forwarded). */
function handedOn(invoke: { mock: { calls: unknown[][] } }): boolean {
  const options = invoke.mock.calls[0]?.[1];
  return typeof options === 'object' && options !== null && placeOf(options)?.reader !== undefined;
}

// One stream for the run tree: an agent used as a tool reports its events in its caller's stream.

const lookup = tool({
  name: 'lookup',
  description: 'Looks up an order.',
  inputSchema: z.object({ id: z.string() }),
  callback: ({ id }) => `order ${id}: 30 EUR`,
});

function refundAgent(name = 'refund'): Agent {
  return new Agent({
    name,
    model: new ScriptedModel([
      {
        text: 'Looking up order 42.',
        toolUses: [{ name: 'lookup', input: { id: '42' } }],
      },
      'Refund of 30 EUR is due.',
    ]),
    tools: [lookup],
  });
}

function billing(tools: Agent[], answer = 'Your refund is on its way.'): Agent {
  const uses = tools.map((t, i) => ({
    name: t.name,
    input: { input: 'order 42' },
    toolUseId: `u${i}`,
  }));
  return new Agent({
    name: 'billing',
    model: new ScriptedModel([{ toolUses: uses }, answer]),
    tools: tools.map((t) => t.asTool()),
  });
}

async function collect(run: AsyncGenerator<AgentStreamEvent, AgentResult>): Promise<AgentStreamEvent[]> {
  const events: AgentStreamEvent[] = [];
  for await (const e of run) events.push(e);
  return events;
}

/** The innermost event of a wrapper (`toolStream`), else the event itself. */
function leaf(e: AgentStreamEvent): AgentStreamEvent {
  return e.type === 'toolStream' ? leaf(e.event) : e;
}

describe('an agent used as a tool, in its caller stream', () => {
  it('yields its events with its path between the toolStart and toolResult of its call', async () => {
    const events = await collect(billing([refundAgent()]).stream('refund order 42'));
    const own = events.filter((e) => e.type !== 'toolStream');
    expect(new Set(own.map((e) => `${e.path}:${e.depth}`))).toEqual(new Set(['billing:0']));
    const start = events.findIndex((e) => e.type === 'toolStart');
    const end = events.findIndex((e) => e.type === 'toolResult' && e.path === 'billing');
    const nested = events.map((e, i) => ({ e, i })).filter(({ e }) => e.type === 'toolStream');
    expect(nested.length).toBeGreaterThan(3);
    for (const { e, i } of nested) {
      expect(i).toBeGreaterThan(start);
      expect(i).toBeLessThan(end);
      expect([e.path, e.depth, leaf(e).path, leaf(e).depth]).toEqual(['billing/refund', 1, 'billing/refund', 1]);
    }
    const nestedText = nested.map(({ e }) => leaf(e)).filter((e) => e.type === 'textDelta');
    expect(nestedText.map((e) => (e.type === 'textDelta' ? e.data : '')).join('')).toBe(
      'Looking up order 42.Refund of 30 EUR is due.',
    );
    // The caller's own text is only its own answer: nested text never mixes into it.
    const ownText = own.map((e) => (e.type === 'textDelta' ? e.data : '')).join('');
    expect(ownText).toBe('Your refund is on its way.');
    const nestedTool = nested.map(({ e }) => leaf(e)).find((e) => e.type === 'toolStart');
    expect(nestedTool?.type === 'toolStart' && nestedTool.toolUse.name).toBe('lookup');
  });

  it('nests any number of levels, each path adding the name of the agent used as a tool', async () => {
    const refund = new Agent({
      name: 'refund',
      model: new ScriptedModel([{ toolUses: [{ name: 'ledger', input: { input: 'book 30' } }] }, 'Booked.']),
      tools: [
        new Agent({
          name: 'ledger',
          model: new ScriptedModel(['Entry 7 booked.']),
        }).asTool(),
      ],
    });
    const events = await collect(billing([refund]).stream('refund'));
    const deepest = events.filter((e) => e.depth === 2);
    expect(deepest.length).toBeGreaterThan(0);
    for (const e of deepest) {
      expect(e.type).toBe('toolStream');
      expect(e.type === 'toolStream' && e.event.type).toBe('toolStream');
      expect(leaf(e).path).toBe('billing/refund/ledger');
    }
  });

  it('interleaves parallel nested agents, each in order on its own path', async () => {
    const events = await collect(billing([refundAgent('refund'), refundAgent('audit')]).stream('go'));
    for (const path of ['billing/refund', 'billing/audit']) {
      const mine = events.filter((e) => e.path === path).map(leaf);
      const text = mine.map((e) => (e.type === 'textDelta' ? e.data : '')).join('');
      expect(text, path).toBe('Looking up order 42.Refund of 30 EUR is due.');
      expect(mine.map((e) => e.type).filter((t) => t === 'toolStart' || t === 'toolResult')).toEqual([
        'toolStart',
        'toolResult',
      ]);
    }
  });

  it('stops at the depth asked for: `depth: 0` yields the agent own events and streams no nested agent', async () => {
    const refund = refundAgent();
    const invoke = vi.spyOn(refund, 'invoke');
    const events = await collect(billing([refund]).stream('go', { depth: 0 }));
    expect(events.filter((e) => e.type === 'toolStream')).toEqual([]);
    expect(events.some((e) => e.type === 'toolResult')).toBe(true);
    expect(invoke).toHaveBeenCalledTimes(1);
    expect(handedOn(invoke)).toBe(false);
    const loud = refundAgent();
    const loudInvoke = vi.spyOn(loud, 'invoke');
    await collect(billing([loud]).stream('go'));
    expect(handedOn(loudInvoke)).toBe(true);
  });

  it('makes no nested events for invoke() with nobody listening, and hands them to toolStream listeners', async () => {
    const before = listenerDispatchCount();
    const quietRefund = refundAgent();
    const invoke = vi.spyOn(quietRefund, 'invoke');
    const quiet = await billing([quietRefund]).invoke('go');
    expect(handedOn(invoke)).toBe(false);
    expect(listenerDispatchCount()).toBe(before);

    const heard: string[] = [];
    const listened = billing([refundAgent()]).on('toolStream', (e) => void heard.push(`${e.path}:${leaf(e).type}`));
    const loud = await listened.invoke('go');
    expect(heard).toContain('billing/refund:textDelta');
    expect(String(loud)).toBe(String(quiet));
  });

  it('pauses and resumes a nested approval without losing or doubling a nested event', async () => {
    const pay = tool({
      name: 'pay',
      description: 'Pays out.',
      inputSchema: z.object({}),
      needsApproval: true,
      callback: () => 'paid',
    });
    const refund = new Agent({
      name: 'refund',
      model: new ScriptedModel([{ text: 'Paying.', toolUses: [{ name: 'pay', input: {} }] }, 'Paid out.']),
      tools: [pay],
    });
    const outer = billing([refund], 'Done.');
    const first = outer.stream('refund');
    const before: AgentStreamEvent[] = [];
    let step = await first.next();
    for (; !step.done; step = await first.next()) before.push(step.value);
    const pause = before.find((e) => e.type === 'interrupt');
    expect(pause?.path).toBe('billing');
    const nestedPause = before.find((e) => leaf(e).type === 'interrupt' && e.path === 'billing/refund');
    expect(nestedPause).toBeDefined();
    const answers = step.value.interrupts.map((i) => ({
      interruptResponse: { interruptId: i.id, response: { approved: true } },
    }));
    expect(step.value.interrupts[0]?.source).toBe('billing/refund');
    const after = await collect(outer.stream(answers));
    const texts = (list: AgentStreamEvent[]): string =>
      list
        .filter((e) => e.path === 'billing/refund')
        .map(leaf)
        .map((e) => (e.type === 'textDelta' ? e.data : ''))
        .join('');
    expect(texts(before)).toBe('Paying.');
    expect(texts(after)).toBe('Paid out.');
    const nestedResults = after.filter((e) => e.path === 'billing/refund').map(leaf);
    expect(nestedResults.filter((e) => e.type === 'toolResult')).toHaveLength(1);
  });

  it("checks the nested agent's text with the caller's output guardrails, streamed or not", async () => {
    const noOrderIds: Guardrail<OutputSubject> = {
      name: 'no-order-ids',
      check: ({ text }) =>
        /42/.test(text) ? { action: 'rewrite', text: text.replace(/42/g, '[id]') } : { action: 'pass' },
    };
    const guarded = (nested: Agent): Agent =>
      new Agent({
        name: 'billing',
        model: new ScriptedModel([{ toolUses: [{ name: 'refund', input: { input: 'order 42' } }] }, 'Done.']),
        tools: [nested.asTool({ preserveContext: true })],
        outputGuardrails: [noOrderIds],
      });
    const events = await collect(guarded(refundAgent()).stream('go'));
    const nestedText = events
      .filter((e) => e.path === 'billing/refund')
      .map(leaf)
      .map((e) => (e.type === 'textDelta' ? e.data : ''))
      .join('');
    expect(nestedText).toBe('Looking up order [id].Refund of 30 EUR is due.');
    const quiet = refundAgent();
    await guarded(quiet).invoke('go');
    const said = JSON.stringify(quiet.messages.filter((m) => m.role === 'assistant'));
    expect(said).toContain('Looking up order [id].');
  });
});
