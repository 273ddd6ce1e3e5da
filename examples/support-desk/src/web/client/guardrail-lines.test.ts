import { describe, expect, it } from 'vitest';
import { describePart, shownParts } from './describe-part.js';
import type { DeskPart } from './desk-message.js';

const speaker = (path: string[]): DeskPart => ({ type: 'data-skein-speaker', data: { path } }) as DeskPart;
const text = (t: string): DeskPart => ({ type: 'text', text: t }) as DeskPart;
const lines = (parts: DeskPart[]) => shownParts(parts).flatMap((p) => describePart(p, new Set()) ?? []);

describe('guardrails on the customer page', () => {
  it('a blocked turn is one line saying what was blocked and why; its result adds nothing', () => {
    const parts = [
      {
        type: 'data-skein-guardrail',
        data: {
          guardrail: 'own-orders',
          where: 'tool',
          reason: 'order 108 is not an order of customer aiko',
          path: 'refund',
          tool: 'issue_refund',
          speaker: ['refund'],
        },
      },
      {
        type: 'data-skein-result',
        data: { turn: 1, status: 'blocked', failureReason: 'Guardrail own-orders blocked ...' },
      },
    ] as DeskPart[];
    expect(lines(parts)).toEqual([
      {
        kind: 'blocked',
        text: 'The desk blocked an action: order 108 is not an order of customer aiko [own-orders (refund)]',
        status: 'failed',
      },
    ]);
  });

  it('a text a guardrail retracted in a graph or swarm leaves the page; other speakers keep theirs', () => {
    const parts = [
      speaker(['triage']),
      text('ROUTE: refund'),
      speaker(['refund']),
      text('I will refund order 108 right now'),
      {
        type: 'data-skein-retract',
        data: { path: ['refund'], part: 't3', guardrail: 'policy', action: 'block' },
      } as DeskPart,
    ];
    expect(lines(parts).map((l) => l.text)).toEqual(['triage', 'ROUTE: refund', 'refund']);
  });
});
