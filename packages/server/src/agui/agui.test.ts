import { afterEach, describe, expect, it } from 'vitest';
import { EventType, type BaseEvent } from '@ag-ui/client';
import { aguiClient, serveAguiDesk } from '../test-support/agui-desk.js';
import type { RunningServer } from '../serve.js';

// @ag-ui/client's own HttpAgent against a real serve()d server on a free loopback port.

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const types = (events: BaseEvent[]) => events.map((e) => e.type);
const ofType = <T extends BaseEvent>(events: BaseEvent[], type: EventType) =>
  events.filter((e) => e.type === type) as T[];
const user = (id: string, content: string) => ({ id, role: 'user' as const, content });
const textOf = (events: BaseEvent[]) =>
  ofType<BaseEvent & { delta: string }>(events, EventType.TEXT_MESSAGE_CONTENT)
    .map((e) => e.delta)
    .join('');

async function start(extra: Parameters<typeof serveAguiDesk>[0] = {}) {
  const desk = await serveAguiDesk(extra);
  running = desk.running;
  return desk;
}

describe('POST /v1/{kind}/{name}/agui with @ag-ui/client HttpAgent', () => {
  it('a desk conversation: a handoff, tools, an approval the customer may not give and the supervisor gives', async () => {
    const desk = await start();
    const path = '/v1/swarms/desk/agui';
    const ben = aguiClient(desk.running, path, 'ben', { threadId: 'case-1' });
    ben.agent.addMessage(user('u1', 'Refund order 42 please'));
    await ben.agent.runAgent({ runId: 'run-1' });

    const seen = types(ben.events);
    expect(seen[0]).toBe(EventType.RUN_STARTED);
    expect(seen.at(-1)).toBe(EventType.RUN_FINISHED);
    const steps = ben.events.filter((e) => e.type === EventType.STEP_STARTED || e.type === EventType.STEP_FINISHED);
    expect(steps.map((e) => `${e.type}:${String(e['stepName'])}`)).toEqual([
      'STEP_STARTED:triage',
      'STEP_FINISHED:triage',
      'STEP_STARTED:refund',
      'STEP_FINISHED:refund',
    ]);
    const calls = ofType<BaseEvent & { toolCallName: string }>(ben.events, EventType.TOOL_CALL_START);
    expect(calls.map((c) => c.toolCallName)).toEqual(['transfer_to_refund', 'issue_refund']);
    const named = ofType<BaseEvent & { name: string }>(ben.events, EventType.TEXT_MESSAGE_START).map((e) => e.name);
    expect(named).toEqual(['triage', 'refund']);
    const approval = ben.events.find((e) => e.type === EventType.CUSTOM && e['name'] === 'skein.approval');
    expect(approval?.['value']).toMatchObject({ name: 'approval', toolName: 'issue_refund', path: ['refund'] });
    // The run's shared state: the handoff, which member ran, how it ended.
    expect(ben.agent.state).toMatchObject({
      status: 'interrupted',
      active: [],
      transitions: expect.any(Number),
      lastTransition: { from: 'triage', to: 'refund', kind: 'handoff' },
    });
    expect(ben.agent.state.nodes).toMatchObject({ triage: 'completed' });
    // The run ends with AG-UI's interrupt outcome; the client now holds the interrupt to answer.
    expect(ben.agent.pendingInterrupts).toHaveLength(1);
    const pending = ben.agent.pendingInterrupts[0];
    expect(pending).toMatchObject({ reason: 'approval', toolCallId: calls[1]?.['toolCallId'] });
    expect(pending?.id).toMatch(/~/);
    expect(desk.ledger.refunds).toEqual([]);

    // The customer answers its own refund through this door: 403, nothing stored, still waiting.
    const resume = [{ interruptId: pending?.id ?? '', status: 'resolved' as const, payload: { approved: true } }];
    await expect(ben.agent.runAgent({ runId: 'run-2', resume })).rejects.toMatchObject({ status: 403 });
    expect(desk.ledger.refunds).toEqual([]);
    const still = await fetch(`${desk.running.url}/v1/swarms/desk/conversations/case-1/pending`, {
      headers: { 'x-user': 'ben' },
    });
    expect(((await still.json()) as { interrupts: { id: string }[] }).interrupts.map((i) => i.id)).toEqual([
      pending?.id,
    ]);

    // The supervisor, acting for ben on the same thread, approves: the refund runs once, the run goes on.
    const boss = aguiClient(desk.running, path, 'boss-for-ben', { threadId: 'case-1' });
    await boss.agent.runAgent({ runId: 'run-3', resume });
    expect(desk.ledger.refunds).toEqual(['42:80']);
    const result = ofType<BaseEvent & { toolCallId: string; content: string }>(boss.events, EventType.TOOL_CALL_RESULT);
    expect(result).toEqual([
      expect.objectContaining({ toolCallId: pending?.toolCallId, content: 'refunded 80 EUR for order 42' }),
    ]);
    expect(textOf(boss.events)).toBe('Done: refunded 80 EUR for order 42');
    expect(boss.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
    // An answer replayed after the run went on fits nothing that waits.
    const again = aguiClient(desk.running, path, 'boss-for-ben', { threadId: 'case-1' });
    await expect(again.agent.runAgent({ runId: 'run-4', resume })).rejects.toMatchObject({ status: 409 });
    expect(desk.ledger.refunds).toEqual(['42:80']);
  });

  it('a graph: one step and one named message per node, the state snapshot then deltas', async () => {
    const desk = await start();
    const client = aguiClient(desk.running, '/v1/graphs/desk/agui', 'ben', { threadId: 'g-1' });
    client.agent.addMessage(user('u1', 'route this'));
    const active: string[][] = [];
    client.agent.subscribe({
      onStateChanged: ({ state }) => void active.push([...(state as { active: string[] }).active]),
    });
    await client.agent.runAgent({ runId: 'g-run-1' });
    // The deltas as they came: who ran, one node after the other.
    expect(active.filter((a, i) => JSON.stringify(a) !== JSON.stringify(active[i - 1]))).toEqual([
      [],
      ['triage'],
      [],
      ['answer'],
      [],
    ]);
    const seen = types(client.events);
    expect(seen.slice(0, 2)).toEqual([EventType.RUN_STARTED, EventType.STATE_SNAPSHOT]);
    const steps = ofType<BaseEvent & { stepName: string }>(client.events, EventType.STEP_STARTED);
    expect(steps.map((s) => s.stepName)).toEqual(['triage', 'answer']);
    expect(seen.filter((t) => t === EventType.STATE_DELTA).length).toBeGreaterThan(2);
    const messages = client.agent.messages.filter((m) => m.role === 'assistant');
    expect(messages.map((m) => [m.name, m.content])).toEqual([
      ['triage', 'You said: route this'],
      ['answer', expect.stringContaining('You said:')],
    ]);
    expect(client.agent.state).toMatchObject({
      kind: 'graphs',
      name: 'desk',
      status: 'completed',
      active: [],
      nodes: { triage: 'completed', answer: 'completed' },
    });
  });

  it('a dropped client re-joins the running run by its runId: the whole run, once; a new runId meanwhile is 409', async () => {
    const desk = await start();
    const path = '/v1/agents/slow/agui';
    const message = user('u1', 'tell me something rather long, slowly, chunk by chunk');
    const first = aguiClient(desk.running, path, 'ben', { threadId: 'drop-1', initialMessages: [message] });
    let dropped = false;
    first.agent.subscribe({
      onTextMessageContentEvent: () => {
        if (!dropped) {
          dropped = true;
          first.agent.abortRun();
        }
      },
    });
    await first.agent.runAgent({ runId: 'r-1' }).catch(() => undefined);
    expect(dropped).toBe(true);
    expect(types(first.events)).not.toContain(EventType.RUN_FINISHED);

    const other = aguiClient(desk.running, path, 'ben', { threadId: 'drop-1', initialMessages: [message] });
    await expect(other.agent.runAgent({ runId: 'r-other' })).rejects.toMatchObject({ status: 409 });

    // A reloaded page: a fresh client on the same thread sends the same run again.
    const back = aguiClient(desk.running, path, 'ben', { threadId: 'drop-1', initialMessages: [message] });
    await back.agent.runAgent({ runId: 'r-1' });
    expect(types(back.events)[0]).toBe(EventType.RUN_STARTED);
    expect(textOf(back.events)).toBe(`You said: ${message.content}`);
    expect(back.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, runId: 'r-1', threadId: 'drop-1' });
    // Once ended, the same runId replays the run (while it is kept), and the conversation holds one turn.
    const late = aguiClient(desk.running, path, 'ben', { threadId: 'drop-1', initialMessages: [message] });
    await late.agent.runAgent({ runId: 'r-1' });
    expect(textOf(late.events)).toBe(textOf(back.events));
    const read = await fetch(`${desk.running.url}/v1/agents/slow/conversations/drop-1`, {
      headers: { 'x-user': 'ben' },
    });
    expect(((await read.json()) as { turns: unknown[] }).turns).toHaveLength(1);
  });

  it("another principal's threadId and runId reach nothing of it", async () => {
    const desk = await start();
    const path = '/v1/swarms/desk/agui';
    const ben = aguiClient(desk.running, path, 'ben', { threadId: 'case-9' });
    ben.agent.addMessage(user('u1', 'Refund order 42 please'));
    await ben.agent.runAgent({ runId: 'run-9' });
    const pending = ben.agent.pendingInterrupts[0];
    // Mallory names ben's thread and run, and answers ben's interrupt: her own, empty thread.
    const resume = [{ interruptId: pending?.id ?? '', status: 'resolved' as const, payload: { approved: true } }];
    const mallory = aguiClient(desk.running, path, 'mallory', { threadId: 'case-9' });
    await expect(mallory.agent.runAgent({ runId: 'run-9x', resume })).rejects.toMatchObject({ status: 409 });
    const copy = aguiClient(desk.running, '/v1/agents/echo/agui', 'mallory', { threadId: 'case-9' });
    copy.agent.addMessage(user('m1', 'hello'));
    await copy.agent.runAgent({ runId: 'run-9' });
    expect(textOf(copy.events)).toBe('You said: hello');
    expect(JSON.stringify(copy.events)).not.toContain('Refund');
    expect(desk.ledger.refunds).toEqual([]);
  });

  it('bad input: protocol-correct problems, 401 before 400, an over-limit body 413, nothing stored', async () => {
    const desk = await start({ limits: { maxBodyBytes: 4_000 } });
    const url = `${desk.running.url}/v1/agents/echo/agui`;
    const send = (body: unknown, headers: Record<string, string> = { 'x-user': 'ben' }) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const input = { threadId: 't1', runId: 'r1', messages: [user('u1', 'hi')], tools: [], context: [] };
    const problem = async (res: Response) => [res.status, ((await res.json()) as { field?: string }).field];
    expect(await problem(await send({ nonsense: true }, {}))).toEqual([401, 'header.authorization']);
    expect(await problem(await send({ ...input, runId: undefined }))).toEqual([400, 'body.runId']);
    expect(await problem(await send({ ...input, threadId: '../etc' }))).toEqual([400, 'body.threadId']);
    expect(await problem(await send({ ...input, messages: [] }))).toEqual([400, 'body.messages']);
    const assistantLast = [...input.messages, { id: 'a1', role: 'assistant', content: 'hello' }];
    expect(await problem(await send({ ...input, messages: assistantLast }))).toEqual([400, 'body.messages.1.role']);
    expect(await problem(await send({ ...input, resume: [{ interruptId: 'x', status: 'resolved' }] }))).toEqual([
      409,
      'body.resume',
    ]);
    const big = aguiClient(desk.running, '/v1/agents/echo/agui', 'ben', { threadId: 't2' });
    big.agent.addMessage(user('u1', 'x'.repeat(5_000)));
    await expect(big.agent.runAgent({ runId: 'r2' })).rejects.toMatchObject({ status: 413 });
    for (const thread of ['t1', 't2'])
      expect(await desk.repository.readSession(desk.app.skein.sessionIdOf('ben', thread))).toBeUndefined();
  });
});
