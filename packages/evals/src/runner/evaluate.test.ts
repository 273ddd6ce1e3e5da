import { describe, expect, it } from 'vitest';
import type { CaseInput } from '../case/eval-case.js';
import type { EvalTarget } from '../run/target.js';
import { answer } from '../scorers/answer.js';
import { cost } from '../scorers/cost.js';
import { interrupts } from '../scorers/interrupts.js';
import { scorer } from '../scorers/scorer.js';
import { toolCalls } from '../scorers/tool-calls.js';
import { trajectory } from '../scorers/trajectory.js';
import { evaluate } from './evaluate.js';
import { shopAgent, shopGraph, shopSwarm } from '../test-support/targets.js';

const scorers = [trajectory(), toolCalls(), interrupts(), answer(), cost()];

const shapes = {
  graph: shopGraph,
  swarm: shopSwarm,
  agent: shopAgent,
} as const;
type Shape = keyof typeof shapes;
const target: EvalTarget = (ctx) =>
  shapes[(ctx.evalCase.metadata['shape'] as Shape | undefined) ?? 'graph'](ctx.sessionManager);

describe('evaluate: the three shapes', () => {
  const cases: CaseInput[] = [
    {
      id: 'graph-refund-approved',
      input: 'Please refund order 108, 60 EUR',
      answers: [{ approve: true }],
      metadata: { shape: 'graph' },
      expect: {
        trajectory: { nodes: ['triage', 'refund'] },
        tools: {
          calls: [{ name: 'issue_refund', args: { orderId: '108', amountEur: 60 } }],
          notCalled: ['reverse_charge'],
        },
        interrupts: [{ tool: 'issue_refund', input: { amountEur: 60 } }],
        answer: { includes: ['Refunded: 60 EUR for order 108'] },
        cost: { modelCalls: 3 },
      },
    },
    {
      id: 'swarm-refund-denied',
      input: 'Please refund order 108, 60 EUR',
      answers: [{ approve: false, message: 'too much' }],
      metadata: { shape: 'swarm' },
      expect: {
        trajectory: { nodes: ['triage', 'refund'], handoffs: ['triage>refund'] },
        tools: { calls: [{ name: 'issue_refund' }], notRun: ['issue_refund'] },
        interrupts: [{ tool: 'issue_refund' }],
        answer: { includes: ['Not refunded', 'too much'] },
      },
    },
    {
      id: 'agent-billing-then-refund',
      turns: ['I was charged twice for order 42', 'Please refund order 7, 12 EUR'],
      metadata: { shape: 'agent' },
      expect: {
        trajectory: { nodes: ['desk', 'billing', 'desk', 'refund'] },
        tools: {
          calls: [
            { name: 'reverse_charge', agent: 'billing' },
            { name: 'issue_refund', args: { amountEur: 12 } },
          ],
        },
        interrupts: [],
        answer: { includes: ['12 EUR for order 7'] },
      },
    },
  ];

  it('runs each case on a fresh target and scores what it did', async () => {
    const report = await evaluate({ target, cases, scorers });
    const failing = report.results.flatMap((r) =>
      Object.entries(r.scores)
        .filter(([, s]) => !s.passed)
        .map(([n, s]) => `${r.caseId} ${n}: ${s.reason}`),
    );
    expect(failing).toEqual([]);
    expect(report.summary.passed).toBe(true);
    expect(report.summary.counts).toMatchObject({ cases: 3, runs: 3, passed: 3 });
    const [graph, swarm, agent] = report.results;
    expect(graph?.run.interrupts).toMatchObject([
      { name: 'approval', source: 'refund', tool: 'issue_refund', answer: { approved: true } },
    ]);
    expect(graph?.run.turns[0]?.transitions?.map((t) => t.kind)).toEqual([
      'start',
      'edge',
      'interrupt',
      'resume',
      'complete',
    ]);
    expect(swarm?.run.toolCalls.map((c) => `${c.agent}:${c.name}:${c.status}`)).toEqual([
      'triage:transfer_to_refund:success',
      'refund:issue_refund:error',
    ]);
    expect(agent?.run.turns.map((t) => t.text)).toEqual([
      'Reversed the duplicate charge: order 42',
      'Refunded: 12 EUR for order 7',
    ]);
    expect(agent?.run.usage).toMatchObject({ modelCalls: 8, toolCalls: 4 });
    expect(report.results.map((r) => r.run.sessionId)).toEqual([
      'eval.graph-refund-approved.r0',
      'eval.swarm-refund-denied.r0',
      'eval.agent-billing-then-refund.r0',
    ]);
  });

  it('a misrouting target fails the trajectory, tool and answer checks, each with its reason', async () => {
    const report = await evaluate({
      target: (ctx) => shopGraph(ctx.sessionManager, { misroute: true }),
      cases: [cases[0] as CaseInput],
      scorers,
    });
    const scores = report.results[0]?.scores ?? {};
    expect(scores['trajectory']).toMatchObject({ score: 0, passed: false });
    expect(scores['trajectory']?.reason).toBe('ran triage > billing; expected exactly triage > refund [exact]');
    expect(scores['toolCalls']?.reason).toContain('issue_refund was not called');
    expect(scores['interrupts']?.reason).toBe('did not ask approval for issue_refund with {"amountEur":60}');
    expect(report.summary.cases[0]?.status).toBe('failed');
  });
});

describe('evaluate: bad input never crashes the run', () => {
  it('a bad case is reported, naming the case and the field; the others run', async () => {
    const report = await evaluate({
      target: (ctx) => shopGraph(ctx.sessionManager),
      cases: [
        {
          id: 'ok',
          input: 'I was charged twice for order 42',
          expect: { trajectory: { nodes: ['triage', 'billing'] } },
        },
        { id: 'typo', input: 'x', expect: { trajectroy: { nodes: [] } } },
        { id: 'bad-args', input: 'x', expect: { tools: { calls: [{ name: 5 }] } } } as unknown as CaseInput,
      ],
      scorers,
    });
    expect(report.summary.counts).toMatchObject({ cases: 3, passed: 1, invalid: 2 });
    expect(report.summary.passed).toBe(false);
    expect(report.summary.cases.filter((c) => c.status === 'invalid').map((c) => c.problem)).toEqual([
      'case "typo" (cases[1]): expect.trajectroy: no scorer reads it (scorers read: trajectory, tools, interrupts, answer, cost)',
      'case "bad-args" (cases[2]): expect.tools.calls.0.name: Invalid input: expected string, received number',
    ]);
  });

  it('a target that throws and a scorer that throws: the run is an error or scores 0, the evaluation goes on', async () => {
    const report = await evaluate({
      target: (ctx) => {
        if (ctx.evalCase.id === 'boom') throw new Error('cannot build');
        return shopGraph(ctx.sessionManager);
      },
      cases: [
        { id: 'boom', input: 'x' },
        { id: 'fine', input: 'I was charged twice for order 42' },
      ],
      scorers: [scorer('fussy', (run) => (run.text ? Promise.reject(new Error('fussy broke')) : 1))],
    });
    const [boom, fine] = report.results;
    expect(boom).toMatchObject({ status: 'error', passed: false, run: { error: 'Error: cannot build' } });
    expect(fine?.scores['fussy']).toEqual({
      score: 0,
      reason: 'the scorer threw: fussy broke',
      threshold: 1,
      passed: false,
    });
    expect(report.summary.cases.find((c) => c.id === 'boom')?.problem).toBe('Error: cannot build');
  });

  it('bad options are configuration errors that say what to change', async () => {
    const base = { target: () => shopAgent(undefined), cases: [] };
    await expect(evaluate({ ...base, scorers: [] })).rejects.toThrow('scorers must list at least one scorer');
    await expect(evaluate({ ...base, scorers: [answer(), answer()] })).rejects.toThrow(
      'Two scorers are named "answer"',
    );
    await expect(evaluate({ ...base, scorers, concurrency: 0 })).rejects.toThrow(
      'concurrency must be a whole number of 1 or more (got 0)',
    );
    await expect(evaluate({ ...base, scorers, name: '../x' })).rejects.toThrow('is part of every session id');
    await expect(evaluate({ ...base, scorers, budget: { modelCalls: -1 } })).rejects.toThrow(
      'budget.modelCalls must be a finite number of 0 or more (got -1)',
    );
  });
});
