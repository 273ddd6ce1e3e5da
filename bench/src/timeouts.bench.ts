/**
 * How soon a run that must stop does stop: a Graph node timeout, a Graph failing fast while a node
 * still runs, a Graph stream closed early, and a Swarm member stopped at its own nodeTimeout after an
 * earlier member's turn. Each stopped turn would run for 5 s; the floor is the same agent
 * raced by hand against an `AbortSignal.timeout` (the least any orchestrator has to wait). These were
 * wall-clock assertions in the fast tier (`executionTimeMs < 5000`, `>= 390 ms`), flaky on a busy
 * machine. The run fails (exit 1) when a stopped run outlasts its floor by a second (it waited for the
 * turn) or the swarm stopped the member before its 400 ms.
 */
import { Agent, ModelError, type Prompt } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { Swarm } from '@skein/swarm';
import { bestMs, table } from './measure.js';

const STOPPED_TURN_MS = 5_000;
const agent = (name: string, script: ScriptedTurn[]): Agent =>
  new Agent({ name, model: new ScriptedModel(script), retryStrategy: null });

/** The floor: invoke `a` and abort it after `ms` (the agent ends its invocation as cancelled). */
async function raced(a: Agent, prompt: Prompt, ms: number): Promise<void> {
  const result = await a.invoke(prompt, { signal: AbortSignal.timeout(ms) });
  if (result.stopReason !== 'cancelled') throw new Error(`the floor ended ${result.stopReason}`);
}

let swarmMemberMs = 0;
const scenarios: { name: string; run: () => Promise<void>; floor: () => Promise<void> }[] = [
  {
    name: 'graph node timeout (30 ms)',
    run: async () => {
      const graph = new GraphBuilder()
        .addNode(agent('slow', [{ text: 'x', delayMs: STOPPED_TURN_MS }]))
        .setNodeTimeout(30);
      const result = await graph.build().invoke('go');
      if (result.status !== 'failed') throw new Error(`ended ${result.status}`);
    },
    floor: () => raced(agent('slow', [{ text: 'x', delayMs: STOPPED_TURN_MS }]), 'go', 30),
  },
  {
    name: 'graph fails fast (a node fails at 10 ms)',
    run: async () => {
      const a = agent('a', [{ error: new ModelError('boom'), delayMs: 10 }]);
      const slow = agent('slow', [{ text: 'x', delayMs: STOPPED_TURN_MS }]);
      const result = await new GraphBuilder().addNode(a).addNode(slow).build().invoke('go');
      if (result.results['slow']?.status !== 'failed') throw new Error('the running node was not stopped');
    },
    floor: () => raced(agent('slow', [{ text: 'x', delayMs: STOPPED_TURN_MS }]), 'go', 10),
  },
  {
    name: 'graph stream closed at nodeStart',
    run: async () => {
      const graph = new GraphBuilder().addNode(agent('slow', [{ text: 'x', delayMs: STOPPED_TURN_MS }])).build();
      for await (const event of graph.stream('go')) if (event.type === 'nodeStart') break;
    },
    floor: () => raced(agent('slow', [{ text: 'x', delayMs: STOPPED_TURN_MS }]), 'go', 0),
  },
  {
    name: 'swarm member B stopped at its 400 ms (A took 100 ms)',
    run: async () => {
      const a = agent('A', [{ toolUses: [{ name: 'transfer_to_b' }], delayMs: 100 }]);
      const b = agent('B', [{ text: 'too late', delayMs: STOPPED_TURN_MS }]);
      const result = await new Swarm({ nodes: [a, b], nodeTimeout: 400 }).invoke('go');
      if (result.status !== 'failed') throw new Error(`ended ${result.status}`);
      swarmMemberMs = result.results['B']?.executionTimeMs ?? 0;
    },
    floor: async () => {
      await agent('A', [{ text: 'handed over', delayMs: 100 }]).invoke('go');
      await raced(agent('B', [{ text: 'x', delayMs: STOPPED_TURN_MS }]), 'go', 400);
    },
  },
];

const rows: (string | number)[][] = [['stop', 'skein ms', 'floor ms', 'skein - floor']];
let failed = false;
for (const s of scenarios) {
  const skein = await bestMs(s.run, 3);
  const floor = await bestMs(s.floor, 3);
  rows.push([s.name, skein, floor, skein - floor]);
  if (skein - floor > 1_000) failed = true;
}
rows.push(['swarm member B ran, ms', swarmMemberMs, 400, swarmMemberMs - 400]);
table(rows);
if (failed || swarmMemberMs < 390)
  console.error('a run did not stop when it had to (or the swarm stopped its member early)');
// Exit now: a turn that a run failed to abort would keep its timer, and this process, alive a while.
process.exit(failed || swarmMemberMs < 390 ? 1 : 0);
