import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { caseRun } from '../testing/index.js';
import { scoreAnswer, toRegExp } from './answer.js';

const run = caseRun({ text: 'I refunded 12 EUR for order 7; it reaches your card in 3 to 5 days.' });

describe('answer scorer', () => {
  it('includes and excludes, case-insensitive', () => {
    expect(scoreAnswer(run, { includes: ['REFUNDED 12 eur'], excludes: ['sorry'] }).score).toBe(1);
    const r = scoreAnswer(run, { includes: ['refunded 60 EUR', 'order 7'], excludes: ['card'] });
    expect(r.score).toBeCloseTo(1 / 3);
    expect(r.reason).toMatch(/^does not include "refunded 60 EUR"; includes "card": "I refunded 12 EUR/);
  });

  it('a regular expression, as a RegExp or a /pattern/flags string', () => {
    expect(scoreAnswer(run, { regex: /\d+ EUR/ }).score).toBe(1);
    expect(scoreAnswer(run, { regex: '/refunded \\d+ eur/i' }).score).toBe(1);
    expect(scoreAnswer(run, { regex: 'refunded \\d+ eur' }).reason).toContain('does not match /refunded \\d+ eur/');
    const global = /EUR/g;
    expect(scoreAnswer(run, { regex: global }).score).toBe(1);
    expect(scoreAnswer(run, { regex: global }).score).toBe(1);
    expect(toRegExp('/a/gi').flags).toBe('gi');
  });

  it('a zod schema on the structured output, else on the answer parsed as JSON', () => {
    const Refund = z.object({ orderId: z.string(), amountEur: z.number() });
    expect(scoreAnswer(caseRun({ structuredOutput: { orderId: '7', amountEur: 12 } }), { schema: Refund }).score).toBe(
      1,
    );
    expect(scoreAnswer(caseRun({ text: '{"orderId":"7","amountEur":12}' }), { schema: Refund }).score).toBe(1);
    const wrong = scoreAnswer(caseRun({ structuredOutput: { orderId: 7 } }), { schema: Refund });
    expect(wrong.reason).toMatch(
      /structured output: orderId: Invalid input: expected string, received number; amountEur/,
    );
    expect(scoreAnswer(run, { schema: Refund }).reason).toContain('no structured output and the answer is not JSON');
  });
});
