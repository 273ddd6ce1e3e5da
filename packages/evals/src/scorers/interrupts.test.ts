import { describe, expect, it } from 'vitest';
import type { InterruptRecord } from '../run/case-run.js';
import { caseRun } from '../testing/index.js';
import { scoreInterrupts } from './interrupts.js';

const approval: InterruptRecord = {
  id: 'tooluse_2#approval',
  name: 'approval',
  source: 'refund',
  tool: 'issue_refund',
  input: { orderId: '108', amountEur: 60 },
  reason: { tool: 'issue_refund', input: { orderId: '108', amountEur: 60 } },
  answer: { approved: true },
};

describe('interrupts scorer', () => {
  it('an approval asked for the right tool and input', () => {
    const r = scoreInterrupts(caseRun({ interrupts: [approval] }), [
      { tool: 'issue_refund', input: { amountEur: 60 } },
    ]);
    expect(r).toEqual({
      score: 1,
      reason: 'asked approval for issue_refund {"orderId":"108","amountEur":60} (from refund)',
    });
  });

  it('the wrong input or tool is not the expected approval, and the asked one is extra', () => {
    const r = scoreInterrupts(caseRun({ interrupts: [approval] }), [
      { tool: 'issue_refund', input: { amountEur: 12 } },
    ]);
    expect(r.score).toBe(0);
    expect(r.reason).toBe(
      'did not ask approval for issue_refund with {"amountEur":12}; asked approval for issue_refund {"orderId":"108","amountEur":60} (from refund), which was not expected',
    );
  });

  it('an empty expectation means no question at all', () => {
    expect(scoreInterrupts(caseRun(), [])).toEqual({ score: 1, reason: 'asked nobody, as expected' });
    expect(scoreInterrupts(caseRun({ interrupts: [approval] }), []).score).toBe(0);
  });

  it('other interrupt names', () => {
    const question: InterruptRecord = { id: 'q', name: 'clarify', source: 'triage', reason: 'which order?' };
    expect(scoreInterrupts(caseRun({ interrupts: [question] }), [{ name: 'clarify' }]).score).toBe(1);
    expect(scoreInterrupts(caseRun({ interrupts: [question, approval] }), [{ name: 'clarify' }]).score).toBe(0.5);
  });
});
