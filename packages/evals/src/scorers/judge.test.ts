import { ModelError, type ModelRequest } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { caseRun, evalCase } from '../testing/index.js';
import { judge, judgePrompt } from './judge.js';

const run = caseRun({
  text: 'I refunded 12 EUR for order 7.',
  turns: [{ input: 'Please refund order 7', text: 'I refunded 12 EUR for order 7.', status: 'completed' }],
  nodes: ['triage', 'refund'],
  toolCalls: [{ agent: 'refund', name: 'issue_refund', input: { orderId: '7', amountEur: 12 }, status: 'success' }],
});
const ctx = { signal: undefined };
const promptOf = (request: ModelRequest): string =>
  request.messages.map((m) => m.content.map((b) => ('text' in b ? b.text : '')).join('')).join('\n');

/** A judge model that grades by what the prompt shows: 1 when the answer names an amount, else 0.2. */
const grader = (): ScriptedModel =>
  new ScriptedModel(
    [
      (request) => ({
        toolUses: [
          {
            name: 'grade',
            input: /refunded \d+ EUR/.test(promptOf(request))
              ? { score: 1, reasons: 'Says what was refunded.' }
              : { score: 0.2, reasons: 'Does not say how much.' },
          },
        ],
      }),
    ],
    { loop: true },
  );

describe('judge scorer', () => {
  it('grades through structured output: score and reasons', async () => {
    const s = judge({ model: grader(), rubric: 'Says how much was refunded.' });
    expect(await s.score(run, evalCase(), ctx)).toEqual({ score: 1, reason: 'Says what was refunded.' });
    expect(await s.score(caseRun({ text: 'Done.' }), evalCase(), ctx)).toEqual({
      score: 0.2,
      reason: 'Does not say how much.',
    });
    expect(s.threshold).toBe(0.7);
    expect(s.spent.modelCalls).toBe(2);
  });

  it("the prompt: rubric, the case's criteria and reference, the conversation, what the system did", () => {
    const c = evalCase({ expect: { judge: { criteria: 'Mentions the 3 to 5 days.', reference: 'Refunded 12 EUR.' } } });
    const prompt = judgePrompt(run, c, 'Friendly.', true);
    expect(prompt).toContain('Rubric:\nFriendly.');
    expect(prompt).toContain('For this case:\nMentions the 3 to 5 days.');
    expect(prompt).toContain('A reference answer:\nRefunded 12 EUR.');
    expect(prompt).toContain('customer: Please refund order 7\nsystem: I refunded 12 EUR for order 7.');
    expect(prompt).toContain('ran: triage > refund');
    expect(prompt).toContain('tool: refund called issue_refund({"orderId":"7","amountEur":12}): success');
    expect(judgePrompt(run, c, 'Friendly.', false)).not.toContain('What the system did');
  });

  it('a judge that fails scores 0 and says why', async () => {
    const broken = new ScriptedModel([{ error: new ModelError('the judge is down') }], { loop: true });
    const s = judge({ model: broken, rubric: 'x' });
    const r = await s.score(run, evalCase(), ctx);
    expect(r?.score).toBe(0);
    expect(r?.reason).toMatch(/^the judge failed: .*the judge is down/);
  });

  it("the judge's own budget: a limit stops the judge, not the evaluation", async () => {
    const s = judge({ model: grader(), rubric: 'x', budget: { modelCalls: 1 } });
    expect((await s.score(run, evalCase(), ctx))?.score).toBe(1);
    const second = await s.score(run, evalCase(), ctx);
    expect(second?.score).toBe(0);
    expect(second?.reason).toMatch(/^the judge failed/);
  });
});
