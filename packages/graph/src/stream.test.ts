import { Agent, type MultiAgentStreamEvent } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { GraphBuilder, type GraphResult } from './index.js';

const agent = (name: string, script: ScriptedTurn[]): Agent => new Agent({ name, model: new ScriptedModel(script) });

async function collect(
  gen: AsyncGenerator<MultiAgentStreamEvent, GraphResult>,
): Promise<{ events: MultiAgentStreamEvent[]; result: GraphResult }> {
  const events: MultiAgentStreamEvent[] = [];
  for (;;) {
    const step = await gen.next();
    if (step.done) return { events, result: step.value };
    events.push(step.value);
  }
}

describe('stream', () => {
  it('yields nodeStart, the node events as nodeStream, nodeStop and transitions; returns the result', async () => {
    const graph = new GraphBuilder()
      .addNode(agent('a', ['hello']))
      .addNode(agent('b', ['bye']))
      .addEdge('a', 'b')
      .build();
    const { events, result } = await collect(graph.stream('go'));
    const kinds = events
      .filter((e) => e.type !== 'nodeStream')
      .map((e) => (e.type === 'transition' ? `t:${e.transition.kind}` : `${e.type}:${e.nodeId}`));
    expect(kinds).toEqual([
      't:start',
      'nodeStart:a',
      'nodeStop:a',
      't:edge',
      'nodeStart:b',
      'nodeStop:b',
      't:complete',
    ]);
    const text = events.flatMap((e) =>
      e.type === 'nodeStream' && e.nodeId === 'a' && 'type' in e.event && e.event.type === 'textDelta'
        ? [e.event.data]
        : [],
    );
    expect(text.join('')).toBe('hello');
    expect(result.status).toBe('completed');
    expect(result.transitions.map((t) => t.seq)).toEqual([0, 1, 2]);
  });

  it('closing the stream early interrupts the run and aborts running nodes', async () => {
    // A turn that ends only when aborted: were closing the stream to wait for it, the test would time out.
    const slow = agent('slow', [{ text: 'never', delayMs: 600_000 }]);
    const graph = new GraphBuilder().addNode(slow).build();
    for await (const event of graph.stream('go')) if (event.type === 'nodeStart') break;
    const again = await new GraphBuilder()
      .addNode(agent('x', ['x']))
      .build()
      .invoke('go');
    expect(again.status).toBe('completed');
  });
});

describe('nested orchestrators', () => {
  it('runs a nested Graph as a node through the MultiAgentBase interface', async () => {
    const inner = new GraphBuilder()
      .setId('inner')
      .addNode(agent('research', ['facts']))
      .addNode(agent('summarize', ['summary of facts']))
      .addEdge('research', 'summarize')
      .build();
    const outer = new GraphBuilder()
      .addNode(agent('plan', ['plan']))
      .addNode(inner)
      .addNode(agent('publish', ['published']))
      .addEdge('plan', 'inner')
      .addEdge('inner', 'publish')
      .build();
    const { events, result } = await collect(outer.stream('go'));
    expect(result.status).toBe('completed');
    expect(result.executionOrder).toEqual(['plan', 'inner', 'publish']);
    expect(result.results['inner']?.text).toBe('summary of facts');
    expect(result.accumulatedUsage.totalTokens).toBe(4 * 15);
    const nested = events
      .filter((e) => e.type === 'nodeStream' && e.nodeId === 'inner')
      .map((e) => (e.type === 'nodeStream' ? e.event : undefined));
    expect(nested.some((e) => e !== undefined && 'type' in e && e.type === 'nodeStart')).toBe(true);
  });

  it('a failed nested graph fails its node', async () => {
    const inner = new GraphBuilder()
      .setId('inner')
      .addNode(agent('loop', ['x']), 'loop')
      .addEdge('loop', 'loop')
      .setEntryPoint('loop')
      .setMaxNodeExecutions(1)
      .build();
    const outer = new GraphBuilder().addNode(inner).build();
    const result = await outer.invoke('go');
    expect(result.status).toBe('failed');
    expect(result.results['inner']?.error).toMatch(/limit of 1 node executions/);
  });
});
