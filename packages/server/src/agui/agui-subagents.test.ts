import { afterEach, describe, expect, it } from 'vitest';
import { EventType, type BaseEvent } from '@ag-ui/client';
import { Agent, type ModelRequest } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { aguiClient, serveAguiDesk } from '../test-support/agui-desk.js';
import { refundModel, refundTool, type RefundLedger } from '../test-support/server-fixtures.js';
import type { RunningServer } from '../serve.js';

// An agent used as a tool, through @ag-ui/client's own HttpAgent (which verifies the event sequence,
// subagents included): the refund agent billing uses is an AG-UI subagent.

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** Billing asks its refund agent (a tool) to refund `amount`, then says it is done. */
function billingModel(amount: number): ScriptedModel {
  const turn = (request: ModelRequest): ScriptedTurn => {
    const last = request.messages.at(-1);
    if (last?.content.some((b) => 'toolResult' in b)) return 'Billing: done.';
    return { text: 'Asking refunds.', toolUses: [{ name: 'refund', input: { input: `refund ${amount} EUR` } }] };
  };
  return new ScriptedModel([turn], { loop: true, record: false });
}

async function start(amount: number) {
  const ledger: RefundLedger = { refunds: [] };
  const desk = await serveAguiDesk({
    agents: {
      billing: ({ sessionManager }) =>
        new Agent({
          name: 'billing',
          sessionManager,
          model: billingModel(amount),
          tools: [new Agent({ name: 'refund', model: refundModel(), tools: [refundTool(ledger)] }).asTool()],
        }),
    },
  });
  running = desk.running;
  return { ...desk, ledger };
}

const of = (events: BaseEvent[], type: EventType) => events.filter((e) => e.type === type);
const user = (content: string) => ({ id: 'u1', role: 'user' as const, content });

describe('agents used as tools over AG-UI', () => {
  it('are subagents: started by the call that runs them, their text and tool calls theirs, finished before its result', async () => {
    const desk = await start(20);
    const ben = aguiClient(desk.running, '/v1/agents/billing/agui', 'ben', { threadId: 'sub-1' });
    ben.agent.addMessage(user('Refund order 42'));
    await ben.agent.runAgent({ runId: 'run-1' });

    const [started, ...more] = of(ben.events, EventType.SUBAGENT_STARTED);
    expect(more).toEqual([]);
    const call = of(ben.events, EventType.TOOL_CALL_START).find((e) => e['toolCallName'] === 'refund');
    expect(started).toMatchObject({ name: 'refund', parentToolCallId: call?.['toolCallId'] });
    const id = started?.['subagentRunId'] as string;
    // What the refund agent did carries its id; billing's own text and calls do not.
    const texts = of(ben.events, EventType.TEXT_MESSAGE_START);
    expect(texts.map((e) => [e['name'], e['subagentRunId']])).toEqual([
      ['billing', undefined],
      ['refund', id],
      ['refund', id],
      ['billing', undefined],
    ]);
    const calls = of(ben.events, EventType.TOOL_CALL_START);
    expect(calls.map((e) => [e['toolCallName'], e['subagentRunId']])).toEqual([
      ['refund', undefined],
      ['issue_refund', id],
    ]);
    // It ends before billing reads its result.
    const finished = ben.events.findIndex((e) => e.type === EventType.SUBAGENT_FINISHED);
    const result = ben.events.findIndex(
      (e) => e.type === EventType.TOOL_CALL_RESULT && e['toolCallId'] === call?.['toolCallId'],
    );
    expect(ben.events[finished]).toMatchObject({ subagentRunId: id, outcome: { type: 'success' } });
    expect(finished).toBeGreaterThan(0);
    expect(result).toBeGreaterThan(finished);
    // The client's conversation: the answer is billing's, never mixed with the refund agent's text.
    const answers = ben.agent.messages.filter((m) => m.role === 'assistant' && m.subagentRunId === undefined);
    expect(answers.map((m) => m.content)).toEqual(['Asking refunds.', 'Billing: done.']);
    expect(desk.ledger.refunds).toEqual(['42:20']);
  });

  it('a subagent waiting for approval: suspended, the interrupt names it; answered, a new subagent goes on', async () => {
    const desk = await start(80);
    const ben = aguiClient(desk.running, '/v1/agents/billing/agui', 'ben', { threadId: 'sub-2' });
    ben.agent.addMessage(user('Refund order 42'));
    await ben.agent.runAgent({ runId: 'run-1' });

    const id = of(ben.events, EventType.SUBAGENT_STARTED)[0]?.['subagentRunId'] as string;
    const [pending] = ben.agent.pendingInterrupts;
    expect(pending).toMatchObject({ reason: 'approval', subagentRunId: id });
    expect(of(ben.events, EventType.SUBAGENT_FINISHED)).toEqual([
      expect.objectContaining({ subagentRunId: id, outcome: { type: 'suspended', interruptIds: [pending?.id] } }),
    ]);
    expect(desk.ledger.refunds).toEqual([]);

    const boss = aguiClient(desk.running, '/v1/agents/billing/agui', 'boss-for-ben', { threadId: 'sub-2' });
    const resume = [{ interruptId: pending?.id ?? '', status: 'resolved' as const, payload: { approved: true } }];
    await boss.agent.runAgent({ runId: 'run-2', resume });
    const again = of(boss.events, EventType.SUBAGENT_STARTED);
    expect(again).toHaveLength(1);
    expect(again[0]?.['subagentRunId']).not.toBe(id);
    expect(of(boss.events, EventType.SUBAGENT_FINISHED).map((e) => e['outcome'])).toEqual([{ type: 'success' }]);
    expect(of(boss.events, EventType.RUN_FINISHED)[0]).toMatchObject({ outcome: { type: 'success' } });
    expect(desk.ledger.refunds).toEqual(['42:80']);
  });
});
