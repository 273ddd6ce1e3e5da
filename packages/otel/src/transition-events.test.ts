import { describe, expect, it } from 'vitest';
import type { NodeTransition } from '@skein/core';
import { transitionEvent } from './transition-events.js';

const at = '2026-01-01T00:00:00.000Z';
const transition = (kind: string, extra: Partial<NodeTransition> = {}): NodeTransition => ({
  seq: 3,
  from: 'a',
  to: 'b',
  kind,
  reason: 'why',
  at,
  ...extra,
});

describe('transitionEvent', () => {
  it.each([
    ['handoff', 'skein.handoff'],
    ['interrupt', 'skein.interrupt'],
    ['resume', 'skein.resume'],
    ['start', 'skein.transition'],
    ['edge', 'skein.transition'],
    ['complete', 'skein.transition'],
    ['constructor', 'skein.transition'],
  ])('a %s transition is a %s event', (kind, name) => {
    expect(transitionEvent(transition(kind)).name).toBe(name);
  });

  it('names seq, kind, reason, and the nodes that are not null', () => {
    expect(transitionEvent(transition('edge')).attributes).toEqual({
      'skein.transition.seq': 3,
      'skein.transition.kind': 'edge',
      'skein.transition.reason': 'why',
      'skein.transition.from': 'a',
      'skein.transition.to': 'b',
    });
    const start = transitionEvent(transition('start', { from: null }));
    expect(start.attributes).not.toHaveProperty('skein.transition.from');
    const end = transitionEvent(transition('complete', { to: null }));
    expect(end.attributes).not.toHaveProperty('skein.transition.to');
  });

  it('adds what the receiver of a handoff got, and only for a handoff', () => {
    const details = {
      historyBefore: 5,
      historyAfter: 2,
      sharedContextKeys: { triage: ['orderId', 'email'], billing: 'not a list' },
      alsoRan: ['lookup'],
      refused: ['transfer_to_refund'],
    };
    expect(transitionEvent(transition('handoff', { details })).attributes).toMatchObject({
      'skein.handoff.history_before': 5,
      'skein.handoff.history_after': 2,
      'skein.handoff.shared_context_keys': ['triage.orderId', 'triage.email'],
      'skein.handoff.also_ran': ['lookup'],
      'skein.handoff.refused': ['transfer_to_refund'],
    });
    const edge = transitionEvent(transition('edge', { details })).attributes;
    expect(Object.keys(edge).filter((k) => k.startsWith('skein.handoff'))).toEqual([]);
  });
});
