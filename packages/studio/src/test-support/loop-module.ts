/**
 * A studio module whose one graph runs a long turn: `ping` and `pong` hand the task to each other
 * until the run has made `STUDIO_LOOP_STEPS` node executions (default 500), on scripted models. The
 * page-memory script serves it with `skein studio`.
 */
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder, type GraphState } from '@skein/graph';
import type { StudioTargets } from '../load-targets.js';

const steps = Number(process.env['STUDIO_LOOP_STEPS'] ?? 500);

const player = (name: string): Agent =>
  new Agent({
    name,
    model: new ScriptedModel([`${name}: the ball goes back over the net.`], { loop: true, record: false }),
  });

const again = (state: GraphState): boolean => state.executionCount < steps;

const targets: StudioTargets = {
  graphs: {
    loop: ({ sessionManager }) =>
      new GraphBuilder()
        .addNode(player('ping'))
        .addNode(player('pong'))
        .addEdge('ping', 'pong')
        .addEdge('pong', 'ping', again)
        .setEntryPoint('ping')
        .setMaxNodeExecutions(steps + 1)
        .setSessionManager(sessionManager)
        .build(),
  },
};

export default targets;
