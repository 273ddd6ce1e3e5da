import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager } from '@skein/session-file';
import { Swarm } from '@skein/swarm';
import { renderLanesHtml, renderLanesText, runCli, RunTreeLanes } from './index.js';
import { captureIo } from './test-support/capture-io.js';

// Nested runs as nested lanes, folded live from one stream and drawn for a terminal and a page.

function graph(): ReturnType<GraphBuilder['build']> {
  const ledger = new Agent({
    name: 'ledger',
    model: new ScriptedModel(['Entry 7 booked.']),
  });
  const refund = new Agent({
    name: 'refund',
    model: new ScriptedModel([{ toolUses: [{ name: 'ledger', input: { input: 'book' } }] }, 'Refunded.']),
    tools: [ledger.asTool()],
  });
  const billing = new Agent({
    name: 'billing-agent',
    model: new ScriptedModel([{ toolUses: [{ name: 'refund', input: { input: '42' } }] }, 'On its way.']),
    tools: [refund.asTool()],
  });
  const triage = new Agent({
    name: 'triage',
    model: new ScriptedModel(['billing']),
  });
  return new GraphBuilder().addNode(triage, 'triage').addNode(billing, 'billing').addEdge('triage', 'billing').build();
}

describe('run-tree lanes', () => {
  it('fold a graph stream into nested lanes as it runs, each ended by its node stop or its tool result', async () => {
    let clock = 0;
    const lanes = new RunTreeLanes(() => clock++);
    const seen: string[] = [];
    for await (const e of graph().stream('refund 42')) {
      lanes.add(e);
      // Live: while the nested ledger agent works, its lane is there, running, under refund under billing.
      const ledger = lanes.lanes().find((l) => l.path === 'billing/refund/ledger');
      if (ledger?.status === 'running') seen.push(renderLanesText(lanes.lanes(), { nowMs: lanes.elapsedMs() }));
    }
    expect(seen.length).toBeGreaterThan(0);
    const live = seen[0] ?? '';
    expect(live.split('\n').map((l) => l.split('│')[0]?.trimEnd())).toEqual([
      'run',
      '  triage',
      '  billing',
      '    refund',
      '      ledger',
    ]);
    const done = lanes.lanes();
    expect(done.map((l) => [l.path, l.status])).toEqual([
      ['', 'completed'],
      ['triage', 'completed'],
      ['billing', 'completed'],
      ['billing/refund', 'completed'],
      ['billing/refund/ledger', 'completed'],
    ]);
    const ledger = done.find((l) => l.path === 'billing/refund/ledger');
    const refund = done.find((l) => l.path === 'billing/refund');
    const billing = done.find((l) => l.path === 'billing');
    // Nested lanes sit inside the ones that run them on the clock.
    for (const [inner, outer] of [
      [ledger, refund],
      [refund, billing],
    ])
      expect((inner?.startMs ?? -1) >= (outer?.startMs ?? 0) && (inner?.endMs ?? Infinity) <= (outer?.endMs ?? 0)).toBe(
        true,
      );
    expect(ledger?.doing).toBe('“Entry 7 booked.');
  });

  it('draw as HTML with the same nesting, escaped', () => {
    const html = renderLanesHtml([
      {
        path: 'billing',
        depth: 0,
        startMs: 0,
        endMs: 10,
        status: 'completed',
        doing: '<b>done</b>',
      },
      {
        path: 'billing/refund',
        depth: 1,
        startMs: 2,
        endMs: 8,
        status: 'completed',
        doing: '',
      },
    ]);
    expect(html).toContain('data-path="billing/refund" style="padding-left:1.5em"');
    expect(html).toContain('left:20.00%;width:60.00%');
    expect(html).toContain('&lt;b&gt;done&lt;/b&gt;');
  });
});

describe('skein show', () => {
  it('draws a nested orchestrator’s members as lanes under the graph node that runs it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-lanes-'));
    try {
      const sessionManager = new FileSessionManager({
        sessionId: 'case-7',
        storageDir: dir,
      });
      const team = new Swarm({
        id: 'desk',
        nodes: [
          new Agent({
            name: 'front',
            model: new ScriptedModel([{ toolUses: [{ name: 'transfer_to_refund', input: {} }] }]),
          }),
          new Agent({
            name: 'refund',
            model: new ScriptedModel(['Refunded.']),
          }),
        ],
        sessionManager,
      });
      const intake = new Agent({
        name: 'intake',
        model: new ScriptedModel(['A refund.']),
      });
      const outer = new GraphBuilder()
        .setId('outer')
        .setSessionManager(sessionManager)
        .addNode(intake)
        .addNode(team)
        .addEdge('intake', 'desk')
        .build();
      expect((await outer.invoke('Refund order 7')).status).toBe('completed');
      await sessionManager.close();
      const io = captureIo();
      expect(await runCli(['show', dir, 'case-7'], io)).toBe(0);
      const graphPart = io.out().slice(io.out().indexOf('graph outer'));
      const lines = graphPart.split('\n');
      const node = lines.findIndex((l) => /^ {2}#1 .* desk /.test(l));
      expect(node).toBeGreaterThan(0);
      expect(lines.slice(node + 1, node + 3).map((l) => l.trim().split(/\s+/).slice(2, 4))).toEqual([
        ['desk/front', 'completed'],
        ['desk/refund', 'completed'],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
