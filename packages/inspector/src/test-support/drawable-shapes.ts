/** A real Graph and Swarm for `skein graph` to print (the CLI test imports this module by path). */
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { Swarm } from '@skein/swarm';

const agent = (name: string): Agent => new Agent({ name, model: new ScriptedModel(['ok'], { loop: true }) });

export const graph = new GraphBuilder()
  .addNode(agent('triage'), 'triage')
  .addNode(agent('billing'), 'billing')
  .addNode(agent('notes'), 'notes')
  .addNode(agent('summary'), 'summary')
  .addEdge('triage', 'billing')
  .addEdge('triage', 'notes')
  .addEdge(['billing', 'notes'], 'summary')
  .build();

const billing = agent('billing');
export const swarm = Swarm.fromAgent(
  new Agent({ name: 'triage', model: new ScriptedModel(['ok']), handoffs: [billing] }),
);
