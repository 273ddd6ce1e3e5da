/**
 * A Restate worker for the tests, run as its own process so tests can SIGKILL it: an agent
 * conversation, a support graph and a swarm, on the scripted parts of `scripted-parts.ts`.
 */
import * as restate from '@restatedev/restate-sdk';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { handoff, nestHandoffHistory } from '@skein/handoffs';
import { Swarm } from '@skein/swarm';
import { restateAgent, restateGraph, restateSwarm } from '../index.js';
import { buildDeskGraph, countedTool, model, trace } from './scripted-parts.js';

const conversation = restateAgent('support', () => new Agent({ name: 'support', model: model('support', ['lookup_order']), tools: [countedTool('lookup_order')] }));
const parallel = restateAgent('parallel', () =>
  new Agent({ name: 'parallel', model: model('parallel', ['lookup_order', 'check_invoice', 'check_refunds']), tools: ['lookup_order', 'check_invoice', 'check_refunds'].map((t) => countedTool(t)) }),
);

const graph = restateGraph('desk', buildDeskGraph);
const graphInline = restateGraph('deskInline', buildDeskGraph, { spreadNodes: 'none' });

// issue_refund waits for a person's approval (needsApproval) before it runs.
const refundAgent = (name: string): Agent => new Agent({ name, model: model(name, ['lookup_order', 'issue_refund']), tools: [countedTool('lookup_order'), countedTool('issue_refund', true)] });
const refunds = restateGraph('refunds', () =>
  new GraphBuilder()
    .addNode(new Agent({ name: 'triage', model: model('triage', []) }), 'triage')
    .addNode(refundAgent('billing'), 'billing')
    .addEdge('triage', 'billing')
    .build(),
);
const refundDesk = restateAgent('refundDesk', () => refundAgent('refundDesk'));

const swarm = restateSwarm('handoffs', () => {
  const billing = new Agent({ name: 'billing', model: model('billing', ['lookup_order']), tools: [countedTool('lookup_order')] });
  const triage = new Agent({
    name: 'triage',
    model: new ScriptedModel([(request) => (trace(`model triage ${request.messages.length}`), { toolUses: [{ name: 'transfer_to_billing', input: {}, toolUseId: 'handoff-1' }] })], { loop: true, record: false }),
    handoffs: [handoff(billing, { inputFilter: (data) => nestHandoffHistory(data) })],
  });
  return new Swarm({ id: 'handoffs', nodes: [triage, billing] });
});

const port = await restate.serve({ port: Number(process.env['SKEIN_WORKER_PORT'] ?? 0), services: [conversation, parallel, graph, graphInline, swarm, refunds, refundDesk] });
console.log(`listening ${port}`);
