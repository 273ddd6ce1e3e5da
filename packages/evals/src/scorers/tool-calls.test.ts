import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { caseRun } from '../testing/index.js';
import { exactMismatch, partialMismatch } from './match-args.js';
import { scoreToolCalls } from './tool-calls.js';

const run = caseRun({
  toolCalls: [
    { agent: 'refund', name: 'lookup_order', input: { orderId: '108' }, status: 'success' },
    {
      agent: 'refund',
      name: 'issue_refund',
      input: { orderId: '108', amountEur: 60, reason: 'broken' },
      status: 'error',
    },
  ],
});

describe('tool-calls scorer', () => {
  it('partial arguments: the expected keys match, others may be there', () => {
    const r = scoreToolCalls(run, { calls: [{ name: 'issue_refund', args: { orderId: '108', amountEur: 60 } }] });
    expect(r.score).toBe(1);
    expect(r.reason).toMatch(/^all 1 tool checks hold \(called lookup_order\(\{"orderId":"108"\}\), issue_refund/);
  });

  it('exact arguments: the same object, an extra key is a mismatch', () => {
    const r = scoreToolCalls(run, {
      calls: [{ name: 'issue_refund', args: { orderId: '108', amountEur: 60 }, match: 'exact' }],
    });
    expect(r.score).toBe(0);
    expect(r.reason).toContain('issue_refund was not called with the expected arguments');
    expect(r.reason).toContain('value: unexpected reason');
  });

  it('a zod schema: its issues are the reason', () => {
    const ok = scoreToolCalls(run, {
      calls: [{ name: 'issue_refund', args: z.object({ amountEur: z.number().max(100) }) }],
    });
    expect(ok.score).toBe(1);
    const over = scoreToolCalls(run, {
      calls: [{ name: 'issue_refund', args: z.object({ amountEur: z.number().max(50) }) }],
    });
    expect(over.score).toBe(0);
    expect(over.reason).toMatch(/amountEur: Too big: expected number to be <=50/);
  });

  it('a wrong argument names the key, the expected and the actual value', () => {
    const r = scoreToolCalls(run, { calls: [{ name: 'issue_refund', args: { amountEur: 12 } }] });
    expect(r.reason).toContain('amountEur: expected 12, got 60');
  });

  it('each expected call takes its own actual call; the agent can be required', () => {
    expect(scoreToolCalls(run, { calls: [{ name: 'lookup_order' }, { name: 'lookup_order' }] }).score).toBe(0.5);
    expect(scoreToolCalls(run, { calls: [{ name: 'lookup_order', agent: 'billing' }] }).reason).toContain(
      'lookup_order was not called by billing',
    );
  });

  it('notCalled: the model never asked for it; notRun: no call of it succeeded (a denied call did not run)', () => {
    expect(scoreToolCalls(run, { notRun: ['issue_refund'] }).score).toBe(1);
    const called = scoreToolCalls(run, { notCalled: ['issue_refund'] });
    expect(called.score).toBe(0);
    expect(called.reason).toContain('issue_refund was called once');
    const ran = scoreToolCalls(run, { notRun: ['lookup_order', 'reverse_duplicate_charge'] });
    expect(ran.score).toBe(0.5);
    expect(ran.reason).toContain('lookup_order ran: lookup_order({"orderId":"108"})');
  });

  it('the score is the share of checks that hold', () => {
    const r = scoreToolCalls(run, {
      calls: [{ name: 'lookup_order' }, { name: 'reverse_duplicate_charge' }],
      notCalled: ['reverse_duplicate_charge'],
      notRun: ['issue_refund'],
    });
    expect(r.score).toBe(0.75);
  });
});

describe('argument matching', () => {
  it('partial matching goes into nested objects; arrays compare exactly', () => {
    expect(partialMismatch({ a: { b: 1, c: 2 }, d: [1, 2] }, { a: { b: 1 }, d: [1, 2] })).toBeUndefined();
    expect(partialMismatch({ a: { b: 1 } }, { a: { c: 1 } })).toBe('a.c: missing (expected 1)');
    expect(partialMismatch({ d: [1, 2, 3] }, { d: [1, 2] })).toBe('d: expected [1,2], got [1,2,3]');
  });
  it('exact matching names the first difference', () => {
    expect(exactMismatch({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe('a.1.b: expected 3, got 2');
    expect(exactMismatch('x', 'x')).toBeUndefined();
  });
});
