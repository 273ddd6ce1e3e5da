import { BeforeNodeCallEvent, RepositorySessionManager } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { GraphBuilder, type Graph } from './index.js';
import { DyingRepository, fastAgent } from './test-support/testing-models.js';

// Each test opens one crash window on purpose (the store dies at a chosen write, as after a
// SIGKILL), then a fresh graph resumes from the store. No timing decides where the crash lands.

const session = (repository: DyingRepository): RepositorySessionManager =>
  new RepositorySessionManager({ sessionId: 's', repository });
const sorted = (ids: readonly string[]): string[] => [...ids].sort();

describe('crash windows', () => {
  it('a node waiting for its BeforeNodeCall hook is stored as running, so a crash then does not lose it', async () => {
    const repository = new DyingRepository();
    let auditHookRunning = false;
    let release = (): void => undefined;
    const refundStored = new Promise<void>((resolve) => (release = resolve));
    const graph = (holdHook: boolean): Graph => {
      const b = new GraphBuilder().setId('g').setSessionManager(session(repository));
      for (const id of ['triage', 'refund', 'audit', 'report']) b.addNode(fastAgent(id, 'zero'), id);
      const g = b.addEdge('triage', 'refund').addEdge('triage', 'audit').addEdge(['refund', 'audit'], 'report').build();
      if (holdHook) {
        g.hooks.addCallback(BeforeNodeCallEvent, async (e) => {
          if (e.nodeId !== 'audit') return;
          auditHookRunning = true;
          await refundStored; // held open until a sibling's state document is written meanwhile
          auditHookRunning = false;
        });
      }
      return g;
    };
    // refund runs while audit's hook is held open. The state document written then is stored (and
    // releases the hook); the process dies at the next write.
    let stored = false;
    repository.dieAt = (w) => {
      if (stored) return true;
      if (w.kind === 'state' && auditHookRunning) {
        stored = true;
        release();
      }
      return false;
    };
    await expect(graph(true).invoke('go')).rejects.toThrow('the process died');
    repository.restart();
    const resumed = await graph(false).invoke('go');
    expect(resumed.status).toBe('completed');
    expect(sorted(resumed.executionOrder)).toEqual(['audit', 'refund', 'report', 'triage']);
    expect(resumed.results['audit']?.executionCount).toBe(1);
  });

  it('transitions are neither doubled nor lost when the process dies between the state document and the history', async () => {
    const shape = (): Graph => {
      const b = new GraphBuilder().setId('g');
      for (const id of ['a', 'b', 'c']) b.addNode(fastAgent(id, 'tick'), id);
      return b.addEdge('a', 'b').addEdge('b', 'c').build();
    };
    const expected = (await shape().invoke('go')).transitions.map((t) => `${t.from}>${t.to}:${t.kind}`);
    for (let k = 1; k <= 3; k++) {
      const repository = new DyingRepository();
      const graph = (): Graph => {
        const b = new GraphBuilder().setId('g').setSessionManager(session(repository));
        for (const id of ['a', 'b', 'c']) b.addNode(fastAgent(id, 'tick'), id);
        return b.addEdge('a', 'b').addEdge('b', 'c').build();
      };
      let transitionWrites = 0;
      repository.dieAt = (w) => w.kind === 'transition' && ++transitionWrites === k;
      await expect(graph().invoke('go')).rejects.toThrow('the process died');
      repository.restart();
      const resumed = await graph().invoke('go');
      const stored = (await repository.readTransitions('s', 'g')).map((t) => `${t.from}>${t.to}:${t.kind}`);
      expect(resumed.status, `died at transition write ${k}`).toBe('completed');
      expect(
        stored.filter((t) => !t.endsWith(':resume')),
        `died at transition write ${k}`,
      ).toEqual(expected);
      expect(stored.map((_, i) => i)).toEqual((await repository.readTransitions('s', 'g')).map((t) => t.seq));
    }
  });
});
