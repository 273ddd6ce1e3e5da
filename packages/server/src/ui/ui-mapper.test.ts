import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../stream/server-events.js';
import { mapUiEvent } from './ui-mapper.js';
import { newUiState, type UiState } from './ui-speakers.js';

const start = (kind = 'agents', answering = false): ServerEvent => ({
  type: 'turnStart',
  turn: 3,
  attempt: 0,
  resumed: false,
  answering,
  kind,
  name: 'desk',
});

function run(events: ServerEvent[], state: UiState = newUiState()) {
  return events.flatMap((e) => mapUiEvent(state, e));
}

const types = (chunks: { type: string }[]) => chunks.map((c) => c.type);

describe('UI message stream mapping', () => {
  it('turnStart: a start with the turn as message id, the turn as data, no step yet for an agent', () => {
    expect(run([start()])).toEqual([
      { type: 'start', messageId: 'turn-3' },
      {
        type: 'data-skein-turn',
        id: 'turn',
        data: { turn: 3, attempt: 0, resumed: false, kind: 'agents', name: 'desk' },
      },
    ]);
  });

  it("turnStart of an answers turn continues the client's message (no message id)", () => {
    expect(run([start('agents', true)])[0]).toEqual({ type: 'start' });
  });

  it('textDelta: a step, the speaker, a text part, then deltas into the same part', () => {
    const state = newUiState();
    run([start()], state);
    expect(run([{ type: 'textDelta', path: [], data: 'Hel' }], state)).toEqual([
      { type: 'start-step' },
      { type: 'data-skein-speaker', id: 'speaker-0', data: { path: [] } },
      { type: 'text-start', id: 't0' },
      { type: 'text-delta', id: 't0', delta: 'Hel' },
    ]);
    expect(run([{ type: 'textDelta', path: [], data: 'lo' }], state)).toEqual([
      { type: 'text-delta', id: 't0', delta: 'lo' },
    ]);
  });

  it('reasoningDelta: a reasoning part', () => {
    const out = run([start(), { type: 'reasoningDelta', path: [], data: 'hmm' }]);
    expect(types(out)).toEqual([
      'start',
      'data-skein-turn',
      'start-step',
      'data-skein-speaker',
      'reasoning-start',
      'reasoning-delta',
    ]);
  });

  it('messageAdded (assistant): closes the text and the step; a user message changes nothing', () => {
    const state = newUiState();
    run([start(), { type: 'textDelta', path: [], data: 'x' }], state);
    expect(run([{ type: 'messageAdded', path: [], message: { role: 'user', content: [] } }], state)).toEqual([]);
    expect(
      run([{ type: 'messageAdded', path: [], message: { role: 'assistant', content: [{ text: 'x' }] } }], state),
    ).toEqual([{ type: 'text-end', id: 't0' }, { type: 'finish-step' }]);
  });

  it('toolStart and toolResult: a dynamic tool part with input, then output or error', () => {
    const state = newUiState();
    run([start()], state);
    const toolUse = { toolUseId: 'tu1', name: 'lookup', input: { id: 1 } };
    expect(run([{ type: 'toolStart', path: [], toolUse }], state)).toEqual([
      { type: 'tool-input-available', toolCallId: 'tu1', toolName: 'lookup', input: { id: 1 }, dynamic: true },
    ]);
    expect(
      run(
        [
          {
            type: 'toolResult',
            path: [],
            toolResult: { toolUseId: 'tu1', status: 'success', content: [{ text: 'ok' }] },
          },
        ],
        state,
      ),
    ).toEqual([{ type: 'tool-output-available', toolCallId: 'tu1', output: 'ok', dynamic: true }]);
    expect(
      run(
        [
          {
            type: 'toolResult',
            path: [],
            toolResult: { toolUseId: 'tu1', status: 'error', content: [{ text: 'boom' }] },
          },
        ],
        state,
      ),
    ).toEqual([{ type: 'tool-output-error', toolCallId: 'tu1', errorText: 'boom', dynamic: true }]);
  });

  it("a node's tool call is titled with the node's path (nodes side by side call tools between each other's text)", () => {
    const state = newUiState();
    run([start()], state);
    const toolUse = { toolUseId: 'tu2', name: 'lookup_order', input: { orderId: '7' } };
    expect(run([{ type: 'toolStart', path: ['desk', 'refund'], toolUse }], state)).toEqual([
      {
        type: 'tool-input-available',
        toolCallId: 'tu2',
        toolName: 'lookup_order',
        input: { orderId: '7' },
        dynamic: true,
        title: 'desk/refund',
      },
    ]);
  });

  it('toolResult with json content: the values; for a call the client never saw: nothing (unless the turn answers)', () => {
    const state = newUiState();
    run([start(), { type: 'toolStart', path: [], toolUse: { toolUseId: 'a', name: 't', input: {} } }], state);
    expect(
      run(
        [
          {
            type: 'toolResult',
            path: [],
            toolResult: { toolUseId: 'a', status: 'success', content: [{ json: { n: 1 } }] },
          },
        ],
        state,
      ),
    ).toEqual([{ type: 'tool-output-available', toolCallId: 'a', output: [{ n: 1 }], dynamic: true }]);
    expect(
      run([{ type: 'toolResult', path: [], toolResult: { toolUseId: 'zz', status: 'success', content: [] } }], state),
    ).toEqual([]);
    const answering = newUiState();
    run([start('agents', true)], answering);
    expect(
      types(
        run(
          [{ type: 'toolResult', path: [], toolResult: { toolUseId: 'zz', status: 'success', content: [] } }],
          answering,
        ),
      ),
    ).toEqual(['tool-output-available']);
  });

  it("interrupt: an approval becomes the SDK's tool-approval-request; other interrupts a data part", () => {
    const state = newUiState();
    run([start()], state);
    const toolUse = { toolUseId: 'tu9', name: 'issue_refund', input: { amount: 80 } };
    const out = run(
      [
        {
          type: 'interrupt',
          path: [],
          interrupts: [
            { id: 'tu9#approval', name: 'approval', reason: { tool: 'issue_refund' }, toolUse, source: 'refund' },
            { id: 'g/n#confirm', name: 'confirm', reason: 'sure?', source: 'g/n' },
          ],
        },
      ],
      state,
    );
    expect(out).toEqual([
      {
        type: 'tool-input-available',
        toolCallId: 'tu9',
        toolName: 'issue_refund',
        input: { amount: 80 },
        dynamic: true,
      },
      { type: 'tool-approval-request', approvalId: 'tu9#approval', toolCallId: 'tu9' },
      {
        type: 'data-skein-interrupt',
        id: 'interrupt-g/n#confirm',
        data: { id: 'g/n#confirm', name: 'confirm', reason: 'sure?', source: 'g/n' },
      },
    ]);
  });

  it('graphs: one step for the turn, text parts per node (in parallel too), node and transition data parts', () => {
    const state = newUiState();
    const out = run(
      [
        start('graphs'),
        { type: 'nodeStart', path: [], nodeId: 'a' },
        { type: 'nodeStart', path: [], nodeId: 'b' },
        { type: 'textDelta', path: ['a'], data: 'A' },
        { type: 'textDelta', path: ['b'], data: 'B' },
        { type: 'textDelta', path: ['a'], data: 'A2' },
        { type: 'nodeStop', path: [], nodeId: 'a', status: 'completed', text: 'AA2', executionTimeMs: 1 },
        {
          type: 'transition',
          path: [],
          transition: { seq: 2, from: 'a', to: 'c', kind: 'edge', reason: 'ok', at: 't' },
        },
      ],
      state,
    );
    expect(out).toEqual([
      { type: 'start', messageId: 'turn-3' },
      {
        type: 'data-skein-turn',
        id: 'turn',
        data: { turn: 3, attempt: 0, resumed: false, kind: 'graphs', name: 'desk' },
      },
      { type: 'start-step' },
      { type: 'data-skein-node', id: 'node-a-1', data: { path: ['a'], status: 'running' } },
      { type: 'data-skein-node', id: 'node-b-1', data: { path: ['b'], status: 'running' } },
      { type: 'data-skein-speaker', id: 'speaker-0', data: { path: ['a'] } },
      { type: 'text-start', id: 't0' },
      { type: 'text-delta', id: 't0', delta: 'A' },
      { type: 'data-skein-speaker', id: 'speaker-1', data: { path: ['b'] } },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'B' },
      { type: 'text-delta', id: 't0', delta: 'A2' },
      { type: 'text-end', id: 't0' },
      { type: 'data-skein-node', id: 'node-a-1', data: { path: ['a'], status: 'completed' } },
      {
        type: 'data-skein-transition',
        id: 'transition--2',
        data: { path: [], seq: 2, from: 'a', to: 'c', kind: 'edge', reason: 'ok', at: 't' },
      },
    ]);
  });

  it('modelRetry that discarded text: an agent resets its step; an orchestrator node closes the part and says so', () => {
    const agent = newUiState();
    run([start(), { type: 'textDelta', path: [], data: 'par' }], agent);
    expect(
      run([{ type: 'modelRetry', path: [], attempt: 1, delayMs: 5, error: 'x', discardedPartialAnswer: true }], agent),
    ).toEqual([{ type: 'reset-step' }]);
    expect(types(run([{ type: 'textDelta', path: [], data: 'full' }], agent))).toEqual([
      'data-skein-speaker',
      'text-start',
      'text-delta',
    ]);
    const graph = newUiState();
    run([start('graphs'), { type: 'textDelta', path: ['n'], data: 'par' }], graph);
    expect(
      types(
        run(
          [{ type: 'modelRetry', path: ['n'], attempt: 1, delayMs: 5, error: 'x', discardedPartialAnswer: true }],
          graph,
        ),
      ),
    ).toEqual(['text-end', 'data-skein-retry']);
    expect(
      run(
        [{ type: 'modelRetry', path: ['n'], attempt: 2, delayMs: 5, error: 'x', discardedPartialAnswer: false }],
        graph,
      ),
    ).toEqual([]);
  });

  it("turnEnd: closes what is open, the result as data, then finish with the SDK's finish reason", () => {
    const reasons: [string, string][] = [
      ['completed', 'stop'],
      ['interrupted', 'tool-calls'],
      ['failed', 'error'],
      ['cancelled', 'other'],
      ['budgetExceeded', 'length'],
      ['stopped', 'interrupted'],
    ];
    for (const [status, finishReason] of reasons) {
      const state = newUiState();
      run([start(), { type: 'textDelta', path: [], data: 'x' }], state);
      const result = {
        conversationId: 'c',
        turn: 3,
        status,
        text: 'x',
        interrupts: [],
        ...(status === 'failed' ? { failureReason: 'bad' } : {}),
      };
      const out = run([{ type: 'turnEnd', result } as ServerEvent], state);
      expect(out[0]).toEqual({ type: 'text-end', id: 't0' });
      expect(out.at(-1)).toEqual({ type: 'finish', finishReason });
      if (status === 'failed') expect(out).toContainEqual({ type: 'error', errorText: 'bad' });
      expect(run([{ type: 'textDelta', path: [], data: 'late' }], state)).toEqual([]);
    }
  });

  it('server notices are transient data parts; gaps map to nothing', () => {
    expect(run([{ type: 'serverStopping', detail: 'bye' }])).toEqual([
      { type: 'data-skein-server', data: { stopping: true, detail: 'bye' }, transient: true },
    ]);
    expect(run([{ type: 'gap', detail: 'x' }])).toEqual([]);
    expect(run([{ type: 'resumed', turn: 1, attempt: 1, detail: 'd' }])).toEqual([
      { type: 'data-skein-resumed', data: { turn: 1, attempt: 1, detail: 'd' }, transient: true },
    ]);
  });
});
