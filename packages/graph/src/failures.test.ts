import {
  AfterMultiAgentInvocationEvent,
  AfterNodeCallEvent,
  Agent,
  BeforeMultiAgentInvocationEvent,
  BeforeNodeCallEvent,
  ModelError,
  MultiAgentInitializedEvent,
  tool,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { GraphBuilder, type GraphState } from './index.js';

const agent = (name: string, script: ScriptedTurn[]): Agent =>
  new Agent({ name, model: new ScriptedModel(script), retryStrategy: null });
const failedWith = (s: GraphState, id: string): boolean => s.results[id]?.status === 'failed';
/** A turn that ends only when aborted: were the run to wait for it, the test would time out. */
const NEVER = 600_000;

describe('timeouts', () => {
  it('a node timeout aborts the model call; the node fails and the graph fails fast', async () => {
    const slow = agent('slow', [{ text: 'never', delayMs: NEVER }]);
    const after = agent('after', ['x']);
    const result = await new GraphBuilder()
      .addNode(slow)
      .addNode(after)
      .addEdge('slow', 'after')
      .setNodeTimeout(30)
      .build()
      .invoke('go');
    expect(result.status).toBe('failed');
    expect(result.results['slow']).toMatchObject({ status: 'failed', error: 'Node slow timed out after 30 ms.' });
    expect(result.failureReason).toBe('Node slow failed: Node slow timed out after 30 ms.');
    expect(result.results['after']).toBeUndefined();
  });

  it('the node signal reaches tools', async () => {
    let aborted = false;
    const wait = tool({
      name: 'wait',
      description: 'waits',
      inputSchema: z.object({}),
      callback: (_input, ctx) =>
        new Promise<string>((resolve) =>
          ctx.signal.addEventListener('abort', () => ((aborted = true), resolve('stopped')), { once: true }),
        ),
    });
    const worker = new Agent({
      name: 'worker',
      tools: [wait],
      model: new ScriptedModel([{ toolUses: [{ name: 'wait' }] }, 'after']),
      retryStrategy: null,
    });
    const result = await new GraphBuilder().addNode(worker).setNodeTimeout(30).build().invoke('go');
    expect(aborted).toBe(true);
    expect(result.results['worker']?.status).toBe('failed');
  });

  it('an execution timeout stops the run with status failed', async () => {
    const a = agent('a', ['a']);
    const b = agent('b', [{ text: 'late', delayMs: 10_000 }]);
    const result = await new GraphBuilder()
      .addNode(a)
      .addNode(b)
      .addEdge('a', 'b')
      .setExecutionTimeout(50)
      .build()
      .invoke('go');
    expect(result.status).toBe('failed');
    expect(result.failureReason).toBe('Execution timeout of 50 ms reached (setExecutionTimeout).');
    expect(result.results['a']?.status).toBe('completed');
    expect(result.results['b']?.status).toBe('failed');
  });
});

describe('failures', () => {
  const boom = (): ScriptedTurn => ({ error: new ModelError('model exploded') });

  it('fails fast by default: nothing new starts after a failure', async () => {
    const a = agent('a', [boom()]);
    const b = agent('b', ['b']);
    const result = await new GraphBuilder().addNode(a).addNode(b).addEdge('a', 'b').build().invoke('go');
    expect(result.status).toBe('failed');
    expect(result.failureReason).toBe('Node a failed: model exploded');
    expect(result.failedCount).toBe(1);
    expect(b.messages).toHaveLength(0);
    expect(result.transitions.map((t) => t.kind)).toEqual(['start', 'fail', 'fail']);
  });

  it('fail-fast aborts the nodes still running', async () => {
    const a = agent('a', [{ error: new ModelError('boom'), delayMs: 10 }]);
    const slow = agent('slow', [{ text: 'never', delayMs: NEVER }]);
    const result = await new GraphBuilder().addNode(a).addNode(slow).build().invoke('go');
    expect(result.status).toBe('failed');
    expect(result.results['slow']?.status).toBe('failed');
  });

  it('continueOnFailure lets conditional edges route around a failure', async () => {
    const primary = agent('primary', [boom()]);
    const fallback = agent('fallback', ['fallback answer']);
    const next = agent('next', ['never']);
    const graph = new GraphBuilder()
      .addNode(primary)
      .addNode(fallback)
      .addNode(next)
      .addEdge('primary', 'next')
      .addEdge('primary', 'fallback', (s) => failedWith(s, 'primary'))
      .continueOnFailure()
      .build();
    const result = await graph.invoke('go');
    expect(result.status).toBe('completed');
    expect(result.executionOrder).toEqual(['primary', 'fallback']);
    expect(result.failedCount).toBe(1);
    expect(next.messages).toHaveLength(0);
  });

  it('continueOnFailure still fails the run when no edge routes around a failure', async () => {
    const a = agent('a', [boom()]);
    const b = agent('b', ['b']);
    const result = await new GraphBuilder().addNode(a).addNode(b).continueOnFailure().build().invoke('go');
    expect(result.status).toBe('failed');
    expect(result.results['b']?.status).toBe('completed');
    expect(result.failureReason).toBe('No edge routes around failed node(s): a (model exploded)');
  });
});

describe('hooks', () => {
  it('cancelNode skips the node and fails it with the reason', async () => {
    const a = agent('a', ['a']);
    const b = agent('b', ['b']);
    const graph = new GraphBuilder().addNode(a).addNode(b).addEdge('a', 'b').build();
    graph.hooks.addCallback(BeforeNodeCallEvent, (e) => {
      if (e.nodeId === 'b') e.cancelNode = 'b is not allowed today';
    });
    const result = await graph.invoke('go');
    expect(result.status).toBe('failed');
    expect(result.results['b']).toMatchObject({ status: 'failed', error: 'b is not allowed today', executionCount: 0 });
    expect(b.messages).toHaveLength(0);
    expect(result.executionOrder).toEqual(['a']);
  });

  it('fires the multi-agent events in order, After* in reverse registration order', async () => {
    const log: string[] = [];
    const graph = new GraphBuilder()
      .addNode(agent('a', ['a']))
      .addNode(agent('b', ['b']))
      .addEdge('a', 'b')
      .build();
    graph.hooks.addCallback(MultiAgentInitializedEvent, () => void log.push('init'));
    graph.hooks.addCallback(BeforeMultiAgentInvocationEvent, () => void log.push('before run'));
    graph.hooks.addCallback(BeforeNodeCallEvent, (e) => void log.push(`before ${e.nodeId}`));
    graph.hooks.addCallback(AfterNodeCallEvent, (e) => void log.push(`after ${e.nodeId} 1 ${e.result.status}`));
    graph.hooks.addCallback(AfterNodeCallEvent, (e) => void log.push(`after ${e.nodeId} 2`));
    graph.hooks.addCallback(AfterMultiAgentInvocationEvent, (e) => void log.push(`after run ${e.result?.status}`));
    await graph.invoke('go', { invocationState: { user: 'u1' } });
    expect(log).toEqual([
      'init',
      'before run',
      'before a',
      'after a 2',
      'after a 1 completed',
      'before b',
      'after b 2',
      'after b 1 completed',
      'after run completed',
    ]);
  });
});

describe('cancellation and concurrency', () => {
  it('an aborted signal ends the run as interrupted', async () => {
    const controller = new AbortController();
    const a = agent('a', [{ text: 'slow', delayMs: 10_000 }]);
    const pending = new GraphBuilder().addNode(a).build().invoke('go', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const result = await pending;
    expect(result.status).toBe('interrupted');
    expect(result.failureReason).toMatch(/cancelled/);
  });

  it('refuses a second run while one is running', async () => {
    const graph = new GraphBuilder().addNode(agent('a', [{ text: 'a', delayMs: 20 }])).build();
    const first = graph.invoke('go');
    await expect(graph.invoke('again')).rejects.toThrow(/already running/);
    expect((await first).status).toBe('completed');
  });
});
