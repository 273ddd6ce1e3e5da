import { describe, expect, it } from 'vitest';
import type { DeskMessage, DeskPart } from './desk-message.js';
import { askedBy, denialNote, internalText } from './desk-words.js';
import { liveStory } from './live-story.js';
import { storyFromView, type ConversationView } from './stored-story.js';

// The customer's view of a conversation, from the live stream (the parts @skein/server sends, as the
// desk's graph, swarm and agent send them) and from the stored conversation: the same cases.

const user = (id: string, text: string): DeskMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});
const assistant = (id: string, parts: DeskPart[]): DeskMessage => ({
  id,
  role: 'assistant',
  parts,
});
const speaker = (...path: string[]): DeskPart => ({
  type: 'data-skein-speaker',
  id: `s-${path.join('/')}`,
  data: { path },
});
const text = (t: string): DeskPart => ({
  type: 'text',
  text: t,
  state: 'done',
});
const node = (name: string, status: string): DeskPart => ({
  type: 'data-skein-node',
  id: `n-${name}`,
  data: { path: [name], status },
});
const edge = (from: string | null, to: string | null, kind: string, reason = ''): DeskPart => ({
  type: 'data-skein-transition',
  id: `t-${from}-${to}-${kind}`,
  data: { path: [], seq: 0, from, to, kind, reason },
});
const tool = (
  name: string,
  input: unknown,
  state: string,
  title?: string,
  extra: Record<string, unknown> = {},
): DeskPart =>
  ({
    type: 'dynamic-tool',
    toolName: name,
    toolCallId: `tooluse_${JSON.stringify(input).length}`,
    input,
    state,
    ...(title ? { title } : {}),
    ...extra,
  }) as DeskPart;

const refund = {
  orderId: '108',
  amountEur: 60,
  reason: 'Please refund order 108, 60 EUR',
};

describe("the customer's cases, live", () => {
  it('a graph: only the summary answers; the rest is details by branch, in the order the case reached them', () => {
    const cases = liveStory(
      [],
      [
        user('u1', 'I was charged twice for order 42'),
        assistant('a1', [
          edge(null, 'triage', 'start'),
          speaker('triage'),
          text('ROUTE: billing'),
          edge('triage', 'billing', 'edge'),
          edge('triage', 'notes', 'edge'),
          speaker('notes'),
          text('Case note: billing request about order 42.'),
          tool('lookup_order', { orderId: '42' }, 'output-available', 'billing', { output: [] }),
          speaker('billing'),
          text('I reversed the duplicate charge on invoice INV-42.'),
          edge('billing', 'summary', 'join'),
          speaker('summary'),
          text('I reversed the duplicate charge on invoice INV-42. Case closed.'),
        ]),
      ],
      'graph',
    );
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({
      message: 'I was charged twice for order 42',
      answer: 'I reversed the duplicate charge on invoice INV-42. Case closed.',
      waiting: '',
      decisions: [],
    });
    expect(cases[0]?.details).toEqual([
      {
        who: 'triage',
        lines: ['decided this is for billing', 'sent the case to billing', 'sent the case to notes'],
      },
      {
        who: 'billing',
        lines: ['looked up order 42', 'I reversed the duplicate charge on invoice INV-42.'],
      },
      { who: 'notes', lines: ['Case note: billing request about order 42.'] },
      {
        who: 'summary',
        lines: ['started once the branches before it were done'],
      },
    ]);
  });

  it('says what the desk is doing while it works, and answers "other" questions without the routing code', () => {
    const working = liveStory(
      [],
      [
        user('u1', 'x'),
        assistant('a1', [
          node('billing', 'running'),
          tool('lookup_order', { orderId: '42' }, 'input-available', 'billing'),
        ]),
      ],
      'graph',
    );
    expect(working[0]?.progress).toBe('looking up order 42');
    const other = liveStory(
      [],
      [user('u1', 'hours?'), assistant('a1', [speaker('triage'), text('ROUTE: other. I can help with charges.')])],
      'graph',
    );
    expect(other[0]?.answer).toBe('I can help with charges.');
  });

  it('says what an agent used as a tool is doing while it works, and nothing once its call is done', () => {
    const nested = (status: string): DeskPart => ({
      type: 'data-skein-nested',
      id: 'nested-tool-refund-t1',
      data: {
        path: ['refund'],
        kind: 'tool',
        tool: 'lookup_order',
        input: { orderId: '42' },
        status,
      },
    });
    const at = (status: string): string | undefined =>
      liveStory(
        [],
        [
          user('u1', 'refund 42'),
          assistant('a1', [tool('refund', { input: 'order 42' }, 'input-available'), nested(status)]),
        ],
        'agent',
      )[0]?.progress;
    expect(at('running')).toBe('refund agent: looking up order 42');
    expect(at('done')).toBe('asking the refund team');
  });

  it('a refund that waits: no answer yet; the turn that goes on after a yes or a no shows the decision', () => {
    const asked = [
      user('u1', 'Please refund order 108, 60 EUR'),
      assistant('a1', [
        speaker('triage'),
        text('Let me pass you to our refund team.'),
        tool('issue_refund', refund, 'approval-requested', 'refund'),
      ]),
    ];
    const waiting = liveStory([], asked, 'swarm')[0];
    expect(waiting).toMatchObject({
      answer: '',
      waiting: 'Waiting for a person on our team to approve a refund of 60 EUR for order 108.',
    });
    expect(waiting?.details).toContainEqual({
      who: 'triage',
      lines: ['Let me pass you to our refund team.'],
    });
    const denied = liveStory(
      [],
      [
        ...asked,
        assistant('a2', [
          tool('issue_refund', refund, 'output-error', 'refund', {
            errorText:
              'The user denied issue_refund: Over the limit. It was not run; do not call it again unless the user asks.',
          }),
          speaker('refund'),
          text('The refund was not made: our team did not approve it (Over the limit).'),
        ]),
      ],
      'swarm',
    )[0];
    expect(denied).toMatchObject({
      waiting: '',
      decisions: [{ approved: false, text: 'Not approved: Over the limit' }],
      answer: 'The refund was not made: our team did not approve it (Over the limit).',
    });
    expect(JSON.stringify(denied)).not.toMatch(/the user|issue_refund/);
  });

  it('a re-joined turn without a message of its own goes on with the last stored case', () => {
    const stored = storyFromView({
      status: 'running',
      interrupts: [],
      turns: [{ turn: 1, status: 'running', prompt: 'Please refund order 7' }],
    });
    const cases = liveStory(
      stored,
      [assistant('a1', [speaker('desk'), text('I refunded 12 EUR for order 7.')])],
      'agent',
    );
    expect(cases).toEqual([
      expect.objectContaining({
        message: 'Please refund order 7',
        answer: 'I refunded 12 EUR for order 7.',
      }),
    ]);
    expect(stored[0]?.answer).toBe(''); // the stored cases are not touched
  });
});

describe("the customer's cases, stored", () => {
  const asked = {
    id: 'tooluse_2#approval',
    name: 'approval',
    source: 'refund',
    toolUse: { toolUseId: 'tooluse_2', name: 'issue_refund', input: refund },
  };

  it('a case per message; the decision with the note from the turn that answered; what still waits', () => {
    const view: ConversationView = {
      status: 'interrupted',
      interrupts: [{ ...asked, id: 'tooluse_5#approval' }],
      turns: [
        {
          turn: 1,
          status: 'interrupted',
          prompt: 'Please refund order 108, 60 EUR',
          text: 'Case note: refund request about order 108.',
          interrupts: [asked],
        },
        {
          turn: 2,
          status: 'completed',
          prompt: '(answers: tooluse_2#approval)',
          answers: {
            'tooluse_2#approval': { approved: true, message: 'Goodwill.' },
          },
          text: 'I refunded 60 EUR for order 108. Case closed.',
        },
        {
          turn: 3,
          status: 'completed',
          prompt: 'What are your opening hours?',
          text: 'ROUTE: other. I can help with charges.',
        },
        { turn: 4, status: 'failed', prompt: 'Again?', text: '' },
        {
          turn: 5,
          status: 'interrupted',
          prompt: 'Please refund order 108, 60 EUR',
          text: 'Case note: refund request about order 108.',
          interrupts: [{ ...asked, id: 'tooluse_5#approval' }],
        },
      ],
    };
    expect(storyFromView(view, [[{ who: 'triage', lines: ['decided this is for refund'] }]])).toEqual([
      {
        message: 'Please refund order 108, 60 EUR',
        answer: 'I refunded 60 EUR for order 108. Case closed.',
        waiting: '',
        decisions: [
          {
            call: 'tooluse_2',
            approved: true,
            text: 'Approved by our team: Goodwill.',
          },
        ],
        problem: '',
        blocked: '',
        progress: '',
        details: [{ who: 'triage', lines: ['decided this is for refund'] }],
      },
      expect.objectContaining({
        message: 'What are your opening hours?',
        answer: 'I can help with charges.',
      }),
      expect.objectContaining({
        message: 'Again?',
        problem: expect.stringMatching(/^Something went wrong on our side/),
      }),
      expect.objectContaining({
        answer: '',
        waiting: 'Waiting for a person on our team to approve a refund of 60 EUR for order 108.',
      }),
    ]);
  });

  it('a denial without a note says what was not approved', () => {
    const cases = storyFromView({
      status: 'completed',
      interrupts: [],
      turns: [
        {
          turn: 1,
          status: 'interrupted',
          prompt: 'Refund 108',
          interrupts: [asked],
        },
        {
          turn: 2,
          status: 'completed',
          prompt: '(answers: x)',
          answers: { 'tooluse_2#approval': { approved: false } },
          text: 'Not made.',
        },
      ],
    });
    expect(cases[0]?.decisions[0]?.text).toBe('Not approved: a refund of 60 EUR for order 108.');
  });
});

describe('the words', () => {
  it("finds the person's note in what the agent was told, and puts routing codes in words", () => {
    expect(denialNote('The user denied issue_refund: Over the limit. It was not run; do not call it again.')).toBe(
      'Over the limit',
    );
    expect(denialNote('The user denied issue_refund. It was not run; do not call it again.')).toBe('');
    expect(denialNote('Order 108 was 420 EUR.')).toBeUndefined();
    expect(internalText('ROUTE: refund')).toBe('decided this is for refund');
  });

  it('names who asked a person, with the path of an agent used as a tool', () => {
    expect(askedBy('refund')).toBe('the refund agent');
    expect(askedBy('desk/refund')).toBe('the refund agent (desk → refund)');
    expect(askedBy('')).toBe('the desk');
  });
});
