import { describe, expect, it } from 'vitest';
import { EvalCaseError } from '../errors.js';
import { answer } from '../scorers/answer.js';
import { interrupts } from '../scorers/interrupts.js';
import { scorer } from '../scorers/scorer.js';
import { toolCalls } from '../scorers/tool-calls.js';
import { trajectory } from '../scorers/trajectory.js';
import { checkCases } from './check-cases.js';
import { parseCases } from './parse-cases.js';
import { parseCaseLines } from './read-case-file.js';

const scorers = [trajectory(), toolCalls(), interrupts(), answer(), scorer('tone', () => 1, { expects: 'tone' })];
const problemsOf = async (values: unknown[]): Promise<string[]> =>
  (
    await checkCases(
      values.map((value, i) => ({ value, origin: `cases[${i}]` })),
      scorers,
    )
  ).flatMap((c) => (c.ok ? [] : [c.problem]));

describe('checking cases', () => {
  it('a good case: one turn from input and answers, or several turns; defaults filled in', async () => {
    const [one, many] = await checkCases(
      [
        { value: { id: 'a', input: 'Refund order 7', answers: [{ approve: true }] }, origin: 'x' },
        {
          value: {
            id: 'b',
            turns: ['hi', { input: 'refund 7', answers: [{ tool: 'issue_refund', approve: false, message: 'no' }] }],
          },
          origin: 'y',
        },
      ],
      scorers,
    );
    expect(one).toEqual({
      ok: true,
      origin: 'x',
      evalCase: {
        id: 'a',
        turns: [{ input: 'Refund order 7', answers: [{ approve: true }] }],
        tags: [],
        expect: {},
        thresholds: {},
        metadata: {},
      },
    });
    expect(many?.ok && many.evalCase.turns).toEqual([
      { input: 'hi' },
      { input: 'refund 7', answers: [{ tool: 'issue_refund', approve: false, message: 'no' }] },
    ]);
  });

  it('each problem names the case, where it came from and the field', async () => {
    expect(
      await problemsOf([
        { id: 'no-turns' },
        { id: 'both', input: 'x', turns: ['y'] },
        { id: 'bad id!', input: 'x' },
        { input: 'x' },
        { id: 'extra', input: 'x', inputs: 'y' },
        { id: 'answer', input: 'x', answers: [{ tool: 'issue_refund' }] },
        { id: 'threshold', input: 'x', thresholds: { trajectory: 2, tonality: 0.5 } },
        { id: 'nodes', input: 'x', expect: { trajectory: { nodes: 'triage' } } },
        { id: 'mode', input: 'x', expect: { trajectory: { nodes: [], match: 'fuzzy' } } },
        { id: 'typo', input: 'x', expect: { answers: { includes: ['a'] } } },
        { id: 'regex', input: 'x', expect: { answer: { regex: '(' } } },
        { id: 'interrupt', input: 'x', expect: { interrupts: [{ tool: 1 }] } },
      ]),
    ).toEqual([
      'case "no-turns" (cases[0]): input: give either input (one turn) or turns',
      'case "both" (cases[1]): input: give either input (one turn) or turns',
      'case "bad id!" (cases[2]): id: use 1-120 characters from A-Z a-z 0-9 _ . @ = + - starting with a letter or digit',
      'case "case-4" (cases[3]): id: Invalid input: expected string, received undefined',
      'case "extra" (cases[4]): (case): Unrecognized key: "inputs"',
      'case "answer" (cases[5]): answers.0: give either approve or response',
      'case "threshold" (cases[6]): thresholds.trajectory: Too big: expected number to be <=1',
      'case "nodes" (cases[7]): expect.trajectory.nodes: Invalid input: expected array, received string',
      'case "mode" (cases[8]): expect.trajectory.match: Invalid option: expected one of "exact"|"inOrder"|"anyOrder"|"subset"|"superset"',
      'case "typo" (cases[9]): expect.answers: no scorer reads it (scorers read: trajectory, tools, interrupts, answer, tone)',
      'case "regex" (cases[10]): expect.answer.regex: not a valid regular expression',
      'case "interrupt" (cases[11]): expect.interrupts.0.tool: Invalid input: expected string, received number',
    ]);
  });

  it('thresholds must name scorers; ids must be unique', async () => {
    expect(
      await problemsOf([
        { id: 'a', input: 'x', thresholds: { tonality: 0.5 } },
        { id: 'b', input: 'x' },
        { id: 'b', input: 'y' },
      ]),
    ).toEqual([
      'case "a" (cases[0]): thresholds.tonality: no scorer has this name (scorers: trajectory, toolCalls, interrupts, answer, tone)',
      'case "b" (cases[2]): id: "b" is already the id of the case from cases[1]',
    ]);
  });

  it('parseCases throws one EvalCaseError listing every bad case', async () => {
    const error = await parseCases([{ id: 'a' }, { id: 'b', input: 'x' }, { id: 'c', input: 5 }], scorers).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EvalCaseError);
    expect((error as EvalCaseError).problems).toHaveLength(2);
    expect((error as EvalCaseError).message).toMatch(
      /^2 cases are not valid:\n {2}- case "a" \(cases\[0\]\): input: give either/,
    );
    expect((error as EvalCaseError).code).toBe('eval_case');
  });
});

describe('JSONL cases', () => {
  it('one case per line; blank lines and // comments skipped; a line that is not JSON is a bad case named by its line', async () => {
    const sources = parseCaseLines(
      ['// billing', '{"id":"a","input":"x"}', '', '{"id":"b","input":"y"', '{"id":"c","input":"z"}'].join('\n'),
      'cases.jsonl',
    );
    expect(sources.map((s) => s.origin)).toEqual(['cases.jsonl line 2', 'cases.jsonl line 4', 'cases.jsonl line 5']);
    const checked = await checkCases(sources, scorers);
    expect(checked.map((c) => c.ok)).toEqual([true, false, true]);
    expect(checked[1]?.ok === false && checked[1].problem).toMatch(/^case "b" \(cases.jsonl line 4\): not JSON: /);
  });
});
