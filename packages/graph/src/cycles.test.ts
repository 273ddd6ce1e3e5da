import { AfterInvocationEvent, Agent, messageText } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { GraphBuilder, type GraphState } from './index.js';

const agent = (name: string, script: ScriptedTurn[], options: { loop?: boolean } = {}): Agent =>
  new Agent({ name, model: new ScriptedModel(script, options) });

describe('cycles', () => {
  it('loops until a condition exits the cycle', async () => {
    const writer = agent('writer', ['draft 1', 'draft 2', 'draft 3']);
    const reviewer = agent('reviewer', ['REVISE', 'REVISE', 'APPROVED']);
    const approved = (s: GraphState): boolean => s.results['reviewer']?.text === 'APPROVED';
    const revise = (s: GraphState): boolean => !approved(s);
    const publish = agent('publish', ['published']);
    const graph = new GraphBuilder()
      .addNode(writer)
      .addNode(reviewer)
      .addNode(publish)
      .addEdge('writer', 'reviewer')
      .addEdge('reviewer', 'writer', revise)
      .addEdge('reviewer', 'publish', approved)
      .setEntryPoint('writer')
      .setMaxNodeExecutions(10)
      .build();
    const result = await graph.invoke('write a haiku');
    expect(result.status).toBe('completed');
    expect(result.executionOrder).toEqual([
      'writer',
      'reviewer',
      'writer',
      'reviewer',
      'writer',
      'reviewer',
      'publish',
    ]);
    expect(result.results['writer']?.executionCount).toBe(3);
    expect(result.results['writer']?.text).toBe('draft 3');
    expect(writer.messages).toHaveLength(6); // history kept across visits by default
  });

  it('ends a cycle at the node-execution limit with status failed and a reason, not an exception', async () => {
    const a = agent('a', ['again'], { loop: true });
    const b = agent('b', ['again'], { loop: true });
    const graph = new GraphBuilder()
      .addNode(a)
      .addNode(b)
      .addEdge('a', 'b')
      .addEdge('b', 'a')
      .setEntryPoint('a')
      .setMaxNodeExecutions(5)
      .build();
    const result = await graph.invoke('go');
    expect(result.status).toBe('failed');
    expect(result.failureReason).toMatch(/limit of 5 node executions \(setMaxNodeExecutions\)/);
    expect(result.executionCount).toBe(5);
    expect(result.executionOrder).toEqual(['a', 'b', 'a', 'b', 'a']);
    expect(result.transitions.at(-1)?.kind).toBe('fail');
  });

  it('resetOnRevisit restores a revisited agent to its initial messages and state', async () => {
    const seed = [
      { role: 'user' as const, content: [{ text: 'seed' }] },
      { role: 'assistant' as const, content: [{ text: 'ok' }] },
    ];
    const seen: number[] = [];
    const worker = new Agent({
      name: 'worker',
      messages: seed,
      state: { visits: 0 },
      model: new ScriptedModel([(req) => (seen.push(req.messages.length), 'w')], { loop: true }),
    });
    worker.hooks.addCallback(AfterInvocationEvent, (e) => {
      e.agent.state.set('visits', (e.agent.state.get('visits') as number) + 1);
    });
    const check = agent('check', ['again', 'again', 'done']);
    const again = (s: GraphState): boolean => s.results['check']?.text === 'again';
    const graph = new GraphBuilder()
      .addNode(worker)
      .addNode(check)
      .addEdge('worker', 'check')
      .addEdge('check', 'worker', again)
      .setEntryPoint('worker')
      .setMaxNodeExecutions(10)
      .resetOnRevisit()
      .build();
    const result = await graph.invoke('go');
    expect(result.status).toBe('completed');
    expect(seen).toEqual([3, 3, 3]); // seed (2) + this visit's input, every time
    expect(worker.state.get('visits')).toBe(1);
    expect(messageText(worker.messages[0])).toBe('seed');
    expect(worker.messages).toHaveLength(4);
  });
});
