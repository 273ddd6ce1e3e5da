import {
  Agent,
  BeforeNodeCallEvent,
  AfterNodeCallEvent,
  ConfigurationError,
  InMemorySessionRepository,
  RepositorySessionManager,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { Swarm } from '@skein/swarm';
import { describe, expect, it } from 'vitest';

function agent(name: string, script: ScriptedTurn[], loop = false): Agent {
  return new Agent({ model: new ScriptedModel(script, { loop }), name, retryStrategy: null });
}

/** Two agents that always hand off to each other. */
function pingPong(): [Agent, Agent] {
  return [
    agent('A', [{ toolUses: [{ name: 'transfer_to_b' }] }], true),
    agent('B', [{ toolUses: [{ name: 'transfer_to_a' }] }], true),
  ];
}

describe('swarm limits end the run with status failed and a reason', () => {
  it('maxHandoffs', async () => {
    const result = await new Swarm({ nodes: pingPong(), maxHandoffs: 3, maxIterations: 50 }).invoke('go');
    expect(result.status).toBe('failed');
    expect(result.handoffCount).toBe(3);
    expect(result.nodeHistory).toEqual(['A', 'B', 'A', 'B']);
    expect(result.failureReason).toMatch(/maxHandoffs \(3\)/);
    expect(result.transitions.at(-1)).toMatchObject({ kind: 'fail', from: 'B', to: null });
  });

  it('maxIterations', async () => {
    const result = await new Swarm({ nodes: pingPong(), maxIterations: 2 }).invoke('go');
    expect(result.status).toBe('failed');
    expect(result.executionCount).toBe(2);
    expect(result.failureReason).toMatch(/maxIterations \(2 node executions\) before running A/);
  });

  it('nodeTimeout', async () => {
    const slow = agent('Slow', [{ text: 'too late', delayMs: 10_000 }]);
    const result = await new Swarm({ nodes: [slow], nodeTimeout: 30 }).invoke('go');
    expect(result.status).toBe('failed');
    expect(result.failureReason).toMatch(/node Slow exceeded the nodeTimeout of 30 ms/i);
    expect(result.results['Slow']?.status).toBe('failed');
  });

  it('nodeTimeout counts from each member turn, not from the first', async () => {
    // Each turn takes less than the nodeTimeout, the run more: nothing times out.
    const a = agent('A', [{ toolUses: [{ name: 'transfer_to_b' }], delayMs: 250 }]);
    const b = agent('B', [{ toolUses: [{ name: 'transfer_to_c' }], delayMs: 250 }]);
    const c = agent('C', [{ text: 'done', delayMs: 250 }]);
    const ok = await new Swarm({ nodes: [a, b, c], nodeTimeout: 400 }).invoke('go');
    expect(ok.status).toBe('completed');
    // A later member that takes too long is stopped at its own limit.
    const quick = agent('A', [{ toolUses: [{ name: 'transfer_to_b' }], delayMs: 100 }]);
    const slow = agent('B', [{ text: 'too late', delayMs: 10_000 }]);
    const late = await new Swarm({ nodes: [quick, slow], nodeTimeout: 400 }).invoke('go');
    expect(late.status).toBe('failed');
    expect(late.failureReason).toMatch(/node B exceeded the nodeTimeout of 400 ms/i);
    expect(late.results['B']?.status).toBe('failed'); // how long B ran before it was stopped: bench/src/timeouts.bench.ts
  });

  it('executionTimeout', async () => {
    const a = agent('A', [{ toolUses: [{ name: 'transfer_to_b' }], delayMs: 10 }]);
    const b = agent('B', [{ text: 'late', delayMs: 10_000 }]);
    const result = await new Swarm({ nodes: [a, b], executionTimeout: 500 }).invoke('go');
    expect(result.status).toBe('failed');
    expect(result.failureReason).toMatch(/executionTimeout of 500 ms elapsed while B was running/);
    expect(result.nodeHistory).toEqual(['A', 'B']);
  });

  it('ping-pong detection', async () => {
    const c = agent('C', []);
    const [a, b] = pingPong();
    const result = await new Swarm({
      nodes: [a, b, c],
      repetitiveHandoffDetectionWindow: 4,
      repetitiveHandoffMinUniqueAgents: 3,
    }).invoke('go');
    expect(result.status).toBe('failed');
    expect(result.nodeHistory).toEqual(['A', 'B', 'A']);
    expect(result.failureReason).toMatch(/ping-pong.*A -> B -> A -> B.*only 2 distinct/);
  });

  it('a failing model fails the node and the run, without throwing', async () => {
    const broken = agent('Broken', [{ error: new Error('model exploded') }]);
    const result = await new Swarm({ nodes: [broken] }).invoke('go');
    expect(result.status).toBe('failed');
    expect(result.failureReason).toBe('Broken failed: model exploded');
  });

  it('a BeforeNodeCallEvent hook can cancel a node', async () => {
    const [a, b] = pingPong();
    const swarm = new Swarm({ nodes: [a, b] });
    const seen: string[] = [];
    swarm.hooks.addCallback(BeforeNodeCallEvent, (e) => {
      if (e.nodeId === 'B') e.cancelNode = 'B is closed today';
    });
    swarm.hooks.addCallback(AfterNodeCallEvent, (e) => void seen.push(`${e.nodeId}:${e.result.status}`));
    const result = await swarm.invoke('go');
    expect(result.status).toBe('failed');
    expect(result.failureReason).toBe('Node B was cancelled: B is closed today');
    expect(seen).toEqual(['A:completed', 'B:failed']);
  });

  it('a cancelled run ends interrupted and the next invoke goes on with the cancelled node where it stopped', async () => {
    const a = agent('A', [{ toolUses: [{ name: 'transfer_to_b' }] }]);
    const b = agent('B', [{ text: 'never', delayMs: 10_000 }, 'B answers after the resume']);
    const swarm = new Swarm({ nodes: [a, b] });
    const controller = new AbortController();
    swarm.hooks.addCallback(BeforeNodeCallEvent, (e) => {
      if (e.nodeId === 'B') setTimeout(() => controller.abort(), 20);
    });
    const first = await swarm.invoke('go', { signal: controller.signal });
    expect(first.status).toBe('interrupted');
    const second = await swarm.invoke('ignored while resuming');
    expect(second.status).toBe('completed');
    expect(second.text).toBe('B answers after the resume');
    // B's execution goes on (one execution, counted once), with nothing of its cut call in its history.
    expect(second.nodeHistory).toEqual(['A', 'B']);
    expect(second.transitions.map((t) => t.kind)).toEqual(['start', 'handoff', 'resume', 'complete']);
  });
});

describe('swarm construction', () => {
  it('refuses bad options and members with their own session manager', () => {
    const sessionManager = new RepositorySessionManager({
      sessionId: 's1',
      repository: new InMemorySessionRepository(),
    });
    const own = new Agent({ model: new ScriptedModel([]), name: 'Own', sessionManager });
    expect(() => new Swarm({ nodes: [own] })).toThrow(
      /has its own sessionManager.*give the session manager to the Swarm/,
    );
    const a = agent('A', []);
    expect(() => new Swarm({ nodes: [] })).toThrow(ConfigurationError);
    expect(() => new Swarm({ nodes: [a], maxHandoffs: -1 })).toThrow(/maxHandoffs must be an integer >= 0/);
    expect(() => new Swarm({ nodes: [a], repetitiveHandoffMinUniqueAgents: 2 })).toThrow(
      /needs repetitiveHandoffDetectionWindow/,
    );
    expect(() => new Swarm({ nodes: [a, agent('a', [])] })).toThrow(/share the handoff tool transfer_to_a/);
    expect(() => new Swarm({ nodes: [a], entryPoint: 'Nope' })).toThrow(/entryPoint must be one of its nodes/);
    expect(() => new Swarm({ nodes: [new Agent({ model: new ScriptedModel([]), name: 'X', handoffs: [a] })] })).toThrow(
      /not a member of the Swarm/,
    );
    expect(() => new Swarm({ nodes: [a], bogus: true } as never)).toThrow(/Unknown Swarm option/);
  });

  it('fromAgent collects every agent reachable through handoffs', () => {
    const refund = agent('Refund agent', []);
    const billing = new Agent({ model: new ScriptedModel([]), name: 'Billing agent', handoffs: [refund] });
    const triage = new Agent({ model: new ScriptedModel([]), name: 'Triage agent', handoffs: [billing] });
    expect(Swarm.fromAgent(triage).nodeIds).toEqual(['Triage agent', 'Billing agent', 'Refund agent']);
  });
});
