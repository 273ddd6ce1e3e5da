/**
 * One budget across four depths: a graph whose node is a swarm whose agent calls another agent as a
 * tool. Every model call draws from the same budget and is counted once in the usage tree.
 */
import { Agent, RunBudget, type UsageTree } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { Swarm } from '@skein/swarm';
import { describe, expect, it } from 'vitest';

const prices = { small: { inputPerMTok: 1, outputPerMTok: 4 }, large: { inputPerMTok: 10, outputPerMTok: 40 } };

function tree(
  expertTurns: ScriptedTurn[] = [
    { text: 'Policy: refund duplicates.', usage: { inputTokens: 200, outputTokens: 100 } },
  ],
): {
  graph: ReturnType<GraphBuilder['build']>;
  models: ScriptedModel[];
  expert: ScriptedModel;
} {
  const expert = new ScriptedModel(expertTurns, { modelId: 'large' });
  const intakeModel = new ScriptedModel(['Customer: charged twice.'], { modelId: 'small' });
  const triageModel = new ScriptedModel(
    [{ text: 'Billing.', toolUses: [{ name: 'transfer_to_billing', input: { message: 'duplicate' } }] }],
    { modelId: 'small' },
  );
  const billingModel = new ScriptedModel(
    [{ toolUses: [{ name: 'policy_expert', input: { input: 'duplicate charge?' } }] }, 'Refunded.'],
    { modelId: 'small' },
  );
  const reportModel = new ScriptedModel(['Report filed.'], { modelId: 'small' });
  const policy = new Agent({ name: 'policy_expert', description: 'Knows the refund policy.', model: expert });
  const swarm = new Swarm({
    id: 'desk',
    nodes: [
      new Agent({ name: 'triage', model: triageModel }),
      new Agent({ name: 'billing', model: billingModel, tools: [policy.asTool()] }),
    ],
  });
  const graph = new GraphBuilder()
    .addNode(new Agent({ name: 'intake', model: intakeModel }))
    .addNode(swarm)
    .addNode(new Agent({ name: 'report', model: reportModel }))
    .addEdge('intake', 'desk')
    .addEdge('desk', 'report')
    .build();
  return { graph, models: [intakeModel, triageModel, billingModel, reportModel, expert], expert };
}

function find(node: UsageTree, path: string[]): UsageTree | undefined {
  let at: UsageTree | undefined = node;
  for (const name of path) at = at?.children.find((c) => c.name === name);
  return at;
}

describe('one budget across a graph, a nested swarm and an agent used as a tool', () => {
  it('counts every model call once, at the agent that made it, rolled up to the root', async () => {
    const { graph, models } = tree();
    const budget = new RunBudget({ totalTokens: 10_000, costUsd: 1, prices });
    const result = await graph.invoke('I was charged twice', { budget });
    expect(result.status).toBe('completed');
    // 5 small calls of 15 tokens, 1 large call of 300.
    const calls = models.reduce((n, m) => n + m.callCount, 0);
    expect(calls).toBe(6);
    expect(budget.spent).toMatchObject({ totalTokens: 5 * 15 + 300, modelCalls: 6, toolCalls: 1, nodeExecutions: 5 });
    const cost = (5 * (10 * 1 + 5 * 4) + (200 * 10 + 100 * 40)) / 1e6;
    expect(budget.spent.costUsd).toBeCloseTo(cost, 12);

    const usage = result.usage as UsageTree;
    expect(usage.spend.totalTokens).toBe(375); // the graph's tree is the whole run, nothing counted twice
    const desk = find(usage, ['desk', 'desk']);
    expect(desk).toMatchObject({ kind: 'swarm', spend: { totalTokens: 15 + 15 + 15 + 300, nodeExecutions: 2 } });
    const expert = find(usage, ['desk', 'desk', 'billing', 'billing', 'policy_expert', 'policy_expert']);
    expect(expert).toMatchObject({ kind: 'agent', spend: { totalTokens: 300, modelCalls: 1 } });
    expect(find(usage, ['desk', 'desk', 'billing', 'billing'])?.spend.totalTokens).toBe(330);
    const rows = usage.children.map((c) => [c.name, c.spend.totalTokens]);
    expect(rows).toEqual([
      ['intake', 15],
      ['desk', 345],
      ['report', 15],
    ]);
  });

  it('stops every level when the nested agent-as-tool spends the budget', async () => {
    const { graph, models } = tree([{ text: 'A very long policy.', usage: { inputTokens: 10, outputTokens: 900 } }]);
    const result = await graph.invoke('I was charged twice', { budget: { outputTokens: 500 } });
    expect(result.status).toBe('budgetExceeded');
    expect(result.budgetExceeded).toMatchObject({ limit: 'outputTokens', max: 500 });
    expect(result.results['desk']).toMatchObject({ status: 'budgetExceeded' });
    expect(result.executionOrder).toEqual(['intake']); // desk did not finish, report never started
    const billing = models[2] as ScriptedModel;
    expect(billing.callCount).toBe(1); // billing stopped before its next call, after the tool's result
  });
});
