/**
 * The handoff failures users of every handoff framework report, each a defined behaviour of the
 * swarm (issue 19). One test per behaviour, named after it; README "What happens when..." lists them.
 */
import {
  Agent,
  BeforeNodeCallEvent,
  InMemorySessionRepository,
  RepositorySessionManager,
  tool,
  type Message,
  type SessionManager,
  type ToolResult,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { handoff, removeAllTools } from '@skein/handoffs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Swarm, type SwarmEvent, type SwarmOptions } from './index.js';

type Name = 'triage' | 'billing' | 'refund';
const NAMES: Record<Name, string> = { triage: 'Triage agent', billing: 'Billing agent', refund: 'Refund agent' };

interface Team {
  swarm: Swarm;
  models: Record<Name, ScriptedModel>;
  agents: Record<Name, Agent>;
}

type Tools = NonNullable<ConstructorParameters<typeof Agent>[0]['tools']>;

function team(
  scripts: Partial<Record<Name, ScriptedTurn[]>>,
  options: Omit<SwarmOptions, 'nodes'> = {},
  tools: Partial<Record<Name, Tools>> = {},
): Team {
  const models = {
    triage: new ScriptedModel(scripts.triage ?? []),
    billing: new ScriptedModel(scripts.billing ?? []),
    refund: new ScriptedModel(scripts.refund ?? []),
  };
  const agents = {
    triage: agentWith(NAMES.triage, models.triage, tools.triage ?? []),
    billing: agentWith(NAMES.billing, models.billing, tools.billing ?? []),
    refund: agentWith(NAMES.refund, models.refund, tools.refund ?? []),
  };
  return { swarm: new Swarm({ nodes: [agents.triage, agents.billing, agents.refund], ...options }), models, agents };
}

function agentWith(name: string, model: ScriptedModel, tools: Tools): Agent {
  return new Agent({ name, model, retryStrategy: null, tools });
}

const texts = (messages: readonly Message[]): string[] =>
  messages.flatMap((m) => m.content.flatMap((b) => ('text' in b && typeof b.text === 'string' ? [b.text] : [])));
const toolResults = (messages: readonly Message[]): ToolResult[] =>
  messages.flatMap((m) => m.content.flatMap((b) => ('toolResult' in b ? [b.toolResult] : [])));
const session = (repository: InMemorySessionRepository): SessionManager =>
  new RepositorySessionManager({ sessionId: 'c1', repository });

describe('What happens when...', () => {
  describe('narrated handoff: a member announces a transfer without calling the tool', () => {
    it('gets one repair turn (a short user note) and the transfer then happens; counted in the result', async () => {
      const t = team({
        triage: [
          "I'll transfer you to the billing agent now.",
          { toolUses: [{ name: 'transfer_to_billing_agent', input: { message: 'charged twice' } }] },
        ],
        billing: ['Refunded.'],
      });
      const result = await t.swarm.invoke('I was charged twice');
      expect(result).toMatchObject({
        status: 'completed',
        nodeHistory: [NAMES.triage, NAMES.billing],
        handoffCount: 1,
        repairTurns: 1,
        text: 'Refunded.',
      });
      const note = t.models.triage.requests[1]?.messages.at(-1);
      expect(note?.role).toBe('user');
      expect(texts(note ? [note] : [])[0]).toMatch(
        /^\[Transfer not made\] You said you would transfer the conversation to Billing agent, but you did not call transfer_to_billing_agent/,
      );
      // Usage of both turns counts.
      expect(result.results[NAMES.triage]?.usage.totalTokens).toBe(30);
    });

    it('gets only one: a second announcement is accepted as the final answer', async () => {
      const t = team({ triage: ['Let me transfer you to billing.', "I'm transferring you to billing."] });
      const result = await t.swarm.invoke('help');
      expect(result).toMatchObject({
        status: 'completed',
        nodeHistory: [NAMES.triage],
        repairTurns: 1,
        text: "I'm transferring you to billing.",
      });
      expect(t.models.triage.callCount).toBe(2);
    });

    it('is accepted as final with repairNarratedHandoffs: false', async () => {
      const t = team({ triage: ['Transferring you to transfer_to_billing_agent.'] }, { repairNarratedHandoffs: false });
      expect(await t.swarm.invoke('help')).toMatchObject({
        status: 'completed',
        repairTurns: 0,
        text: 'Transferring you to transfer_to_billing_agent.',
      });
    });

    it('does not misfire on ordinary answers that mention a member, offer or refuse a transfer', async () => {
      for (const answer of [
        'Your billing address is up to date; the refund of 12 EUR is on its way.',
        'I can transfer you to billing if you like, just say so.',
        'I will not transfer you to billing: I fixed the charge myself.',
        'The bank transfer to your account went through this morning.',
      ]) {
        const t = team({ triage: [answer] });
        expect(await t.swarm.invoke('help'), answer).toMatchObject({
          status: 'completed',
          repairTurns: 0,
          text: answer,
        });
        expect(t.models.triage.callCount, answer).toBe(1);
      }
    });

    it('is accepted as final when the announced transfer is disabled (isEnabled false)', async () => {
      const billing = agentWith(NAMES.billing, new ScriptedModel([]), []);
      const triageModel = new ScriptedModel(["I'll transfer you to billing."]);
      const triage = new Agent({
        name: NAMES.triage,
        model: triageModel,
        handoffs: [handoff(billing, { isEnabled: false })],
      });
      expect(await new Swarm({ nodes: [triage, billing] }).invoke('help')).toMatchObject({
        status: 'completed',
        repairTurns: 0,
      });
      expect(triageModel.callCount).toBe(1);
    });

    it('stores the repair note and the repaired turn with the session, and a resumed run replays them', async () => {
      const repository = new InMemorySessionRepository();
      const first = team(
        {
          triage: [
            "I'll hand you over to the Billing agent.",
            { toolUses: [{ name: 'transfer_to_billing_agent', input: {} }] },
          ],
        },
        { sessionManager: session(repository), id: 'support' },
      );
      first.swarm.hooks.addCallback(BeforeNodeCallEvent, (e) => {
        if (e.nodeId === NAMES.billing) throw new Error('simulated crash before billing starts');
      });
      await expect(first.swarm.invoke('I was charged twice')).rejects.toThrow(/simulated crash/);
      const second = team({ billing: ['Refunded.'] }, { sessionManager: session(repository), id: 'support' });
      const result = await second.swarm.invoke('ignored while resuming');
      expect(result).toMatchObject({
        status: 'completed',
        nodeHistory: [NAMES.triage, NAMES.billing],
        repairTurns: 1,
        text: 'Refunded.',
      });
      const seen = texts(second.models.billing.requests[0]?.messages ?? []);
      expect(seen.slice(0, 3)).toEqual([
        'I was charged twice',
        "I'll hand you over to the Billing agent.",
        expect.stringMatching(/^\[Transfer not made\]/),
      ]);
      expect(toolResults(second.models.billing.requests[0]?.messages ?? []).map((r) => r.status)).toEqual(['success']);
    });
  });

  it('tool call plus handoff in one turn: the other tools run first and their results are kept, the transfer happens once, both recorded', async () => {
    let lookups = 0;
    const lookup = tool({
      name: 'lookup_order',
      description: 'Finds an order.',
      inputSchema: z.object({ id: z.string() }),
      callback: ({ id }) => `order ${id}: ${++lookups} charge(s)`,
    });
    const t = team(
      {
        triage: [
          {
            toolUses: [
              { name: 'transfer_to_billing_agent', input: { message: 'charged twice' } },
              { name: 'lookup_order', input: { id: '42' } },
            ],
          },
        ],
        billing: ['Refunded.'],
      },
      {},
      { triage: [lookup] },
    );
    const order: string[] = [];
    for await (const e of t.swarm.stream('I was charged twice'))
      if (e.type === 'nodeStream' && e.event.type === 'toolResult') order.push(e.event.toolResult.toolUseId);
    const result = (await t.swarm.lastResult())!;
    expect(lookups).toBe(1);
    expect(order).toEqual(['tooluse_2', 'tooluse_1']); // lookup_order (asked second) finished before the transfer
    expect(result).toMatchObject({ status: 'completed', nodeHistory: [NAMES.triage, NAMES.billing], handoffCount: 1 });
    expect(toolResults(t.models.billing.requests[0]?.messages ?? [])).toMatchObject([
      { status: 'success' },
      { status: 'success', content: [{ text: 'order 42: 1 charge(s)' }] },
    ]);
    const handoff = result.transitions.find((x) => x.kind === 'handoff');
    expect(handoff).toMatchObject({
      reason: 'charged twice; after running lookup_order',
      details: { alsoRan: ['lookup_order'] },
    });
  });

  it('several handoffs in one turn: the first wins, the others get an error result naming the winner, recorded in the transition', async () => {
    const t = team({
      triage: [
        {
          toolUses: [
            { name: 'transfer_to_billing_agent', input: {} },
            { name: 'transfer_to_refund_agent', input: {} },
          ],
        },
      ],
      billing: ['Refunded.'],
    });
    const result = await t.swarm.invoke('I was charged twice');
    expect(result).toMatchObject({ status: 'completed', nodeHistory: [NAMES.triage, NAMES.billing], handoffCount: 1 });
    expect(t.models.refund.callCount).toBe(0);
    const refused = toolResults(t.models.billing.requests[0]?.messages ?? [])[1];
    expect(refused).toMatchObject({
      status: 'error',
      content: [
        {
          text: 'Ignored: this turn already transferred to Billing agent; only the first handoff of a turn is performed.',
        },
      ],
    });
    const handoffs = result.transitions.filter((x) => x.kind === 'handoff');
    expect(handoffs).toHaveLength(1);
    expect(handoffs[0]).toMatchObject({
      reason:
        'Triage agent called transfer_to_billing_agent; not performed: transfer_to_refund_agent (one transfer per turn: the first valid one)',
      details: { refused: ['transfer_to_refund_agent'] },
    });
  });

  describe('failure is failure: a member that fails after a handoff ends the swarm failed, naming it', () => {
    const toBilling: ScriptedTurn = { toolUses: [{ name: 'transfer_to_billing_agent', input: {} }] };
    const endsFailed = (result: Awaited<ReturnType<Swarm['invoke']>>, reason: RegExp): void => {
      expect(result).toMatchObject({
        status: 'failed',
        nodeHistory: [NAMES.triage, NAMES.billing],
        failureReason: expect.stringMatching(reason),
      });
      expect(result.results[NAMES.billing]).toMatchObject({ status: 'failed', error: expect.stringMatching(reason) });
      expect(result.transitions.at(-1)).toMatchObject({ kind: 'fail', from: NAMES.billing, to: null });
    };

    it('when it throws', async () => {
      const t = team({ triage: [toBilling], billing: [{ error: new Error('model down') }] });
      endsFailed(await t.swarm.invoke('help'), /^Billing agent failed: .*model down/);
    });

    it('when it times out', async () => {
      const t = team({ triage: [toBilling], billing: [{ text: 'too late', delayMs: 5_000 }] }, { nodeTimeout: 30 });
      endsFailed(await t.swarm.invoke('help'), /^Node Billing agent exceeded the nodeTimeout of 30 ms/);
    });

    it('when it is cancelled', async () => {
      const t = team({ triage: [toBilling], billing: [{ text: 'never', delayMs: 5_000 }] });
      t.swarm.on('nodeStart', (e) => {
        if (e.nodeId === NAMES.billing) setTimeout(() => t.agents.billing.cancel(), 5);
      });
      endsFailed(await t.swarm.invoke('help'), /^Billing agent was cancelled\.$/);
    });
  });

  it('failure is failure: an agent used as a tool that fails gives its caller an error tool result', async () => {
    const ledger = new Agent({
      name: 'ledger',
      model: new ScriptedModel([{ error: new Error('ledger offline') }]),
      retryStrategy: null,
    });
    const t = team(
      {
        triage: [
          { toolUses: [{ name: 'ledger', input: { input: 'charges of order 42' } }] },
          'I could not reach the ledger.',
        ],
      },
      {},
      { triage: [ledger.asTool()] },
    );
    const result = await t.swarm.invoke('help');
    expect(result).toMatchObject({ status: 'completed', text: 'I could not reach the ledger.' });
    expect(toolResults(t.models.triage.requests[1]?.messages ?? [])).toMatchObject([
      { status: 'error', content: [{ text: expect.stringMatching(/^ledger failed: .*ledger offline/) }] },
    ]);
  });

  it('what the receiver got: the handoff event and the transition carry the message, the shared-context keys and the history sizes before and after the filter', async () => {
    const repository = new InMemorySessionRepository();
    const lookup = tool({
      name: 'lookup_order',
      description: 'Finds an order.',
      inputSchema: z.object({ id: z.string() }),
      callback: () => 'two charges',
    });
    const t = team(
      {
        triage: [
          { toolUses: [{ name: 'lookup_order', input: { id: '42' } }] },
          {
            text: 'Let me get billing.',
            toolUses: [
              {
                name: 'transfer_to_billing_agent',
                input: { message: 'charged twice', context: { order_id: '42', tier: 'gold' } },
              },
            ],
          },
        ],
        billing: ['Refunded.'],
      },
      { handoffInputFilter: removeAllTools, sessionManager: session(repository), id: 'support' },
      { triage: [lookup] },
    );
    const events: Extract<SwarmEvent, { type: 'handoff' }>[] = [];
    t.swarm.on('handoff', (e) => void events.push(e));
    const result = await t.swarm.invoke('I was charged twice');
    // Before: the task, then triage's turn (lookup call, its result, the transfer call, its result). After removeAllTools: the task and the text.
    const details = {
      message: 'charged twice',
      sharedContextKeys: { [NAMES.triage]: ['order_id', 'tier'] },
      historyBefore: 5,
      historyAfter: 2,
    };
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ from: NAMES.triage, to: NAMES.billing, details });
    const transition = result.transitions.find((x) => x.kind === 'handoff');
    expect(transition?.details).toEqual(details);
    expect(events[0]?.transition).toEqual(transition);
    // The session keeps them: a swarm opening it later reads the same record.
    const stored = await team({}, { sessionManager: session(repository), id: 'support' }).swarm.lastResult();
    expect(stored?.transitions.find((x) => x.kind === 'handoff')?.details).toEqual(details);
  });

  describe("memory by choice: a member's own memory across its activations", () => {
    const visit = tool({
      name: 'count_visit',
      description: "Counts this agent's visits.",
      inputSchema: z.object({}),
      callback: (_input, ctx) => {
        const visits = ((ctx.agent.state.get('visits') as number | undefined) ?? 0) + 1;
        ctx.agent.state.set('visits', visits);
        return `visit ${visits}`;
      },
    });
    const scripts = (): Partial<Record<Name, ScriptedTurn[]>> => ({
      triage: [
        { toolUses: [{ name: 'count_visit', input: {} }] },
        { toolUses: [{ name: 'transfer_to_billing_agent', input: {} }] },
        { toolUses: [{ name: 'count_visit', input: {} }] },
        'Done.',
      ],
      billing: [{ toolUses: [{ name: 'transfer_to_triage_agent', input: {} }] }],
    });
    const run = async (options: Omit<SwarmOptions, 'nodes'>): Promise<{ t: Team; visits: string[] }> => {
      const t = team(scripts(), options, { triage: [visit] });
      const result = await t.swarm.invoke('help');
      expect(result).toMatchObject({ status: 'completed', nodeHistory: [NAMES.triage, NAMES.billing, NAMES.triage] });
      const last = t.models.triage.requests.at(-1)?.messages ?? [];
      return {
        t,
        visits: toolResults(last)
          .flatMap((r) => r.content.flatMap((b) => ('text' in b ? [b.text] : [])))
          .filter((x) => x.startsWith('visit')),
      };
    };

    it('is kept across the run by default: a returning member has its agent state', async () => {
      const { t, visits } = await run({});
      expect(t.agents.triage.state.get('visits')).toBe(2);
      // Its messages are the conversation passed on, which holds its own earlier turn.
      expect(visits).toEqual(['visit 1', 'visit 2']);
    });

    it("is fresh on every activation with memberMemory: 'fresh' (the conversation passed on is the same)", async () => {
      const { t, visits } = await run({ memberMemory: 'fresh' });
      expect(t.agents.triage.state.get('visits')).toBe(1);
      expect(visits).toEqual(['visit 1', 'visit 1']);
    });
  });
});
