/**
 * A Restate worker for the tests, run as its own process so tests can SIGKILL it: an agent
 * conversation, a support graph and a swarm, on the scripted parts of `scripted-parts.ts`.
 */
import * as restate from '@restatedev/restate-sdk';
import { z } from 'zod';
import { Agent, tool } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { handoff, nestHandoffHistory } from '@skein/handoffs';
import { Swarm } from '@skein/swarm';
import { restateAgent, restateGraph, restateSwarm } from '../index.js';
import { buildDeskGraph, countedTool, model, trace } from './scripted-parts.js';

// Services are global to a restate-server: each test file that shares one names its services with a
// prefix of its own (SKEIN_SERVICE_PREFIX), e.g. `spread_desk`.
const service = (name: string): string => `${process.env['SKEIN_SERVICE_PREFIX'] ?? ''}${name}`;

const conversation = restateAgent(
  service('support'),
  () => new Agent({ name: 'support', model: model('support', ['lookup_order']), tools: [countedTool('lookup_order')] }),
);
const parallel = restateAgent(
  service('parallel'),
  () =>
    new Agent({
      name: 'parallel',
      model: model('parallel', ['lookup_order', 'check_invoice', 'check_refunds']),
      tools: ['lookup_order', 'check_invoice', 'check_refunds'].map((t) => countedTool(t)),
    }),
);

const graph = restateGraph(service('desk'), buildDeskGraph);
const graphInline = restateGraph(service('deskInline'), buildDeskGraph, { spreadNodes: 'none' });

// issue_refund waits for a person's approval (needsApproval) before it runs.
const refundAgent = (name: string): Agent =>
  new Agent({
    name,
    model: model(name, ['lookup_order', 'issue_refund']),
    tools: [countedTool('lookup_order'), countedTool('issue_refund', true)],
  });
// Every node a call ('all'), so the paused turn travels to the node's worker and back on resume.
const refunds = restateGraph(
  service('refunds'),
  () =>
    new GraphBuilder()
      .addNode(new Agent({ name: 'triage', model: model('triage', []) }), 'triage')
      .addNode(refundAgent('billing'), 'billing')
      .addEdge('triage', 'billing')
      .build(),
  { spreadNodes: 'all' },
);
const refundDesk = restateAgent(service('refundDesk'), () => refundAgent('refundDesk'));
// The refund agent used as a tool (asTool): its approval pauses the outer conversation, and the
// answer must reach the nested agent where it stood (not start it again).
const nestedDesk = restateAgent(service('nestedDesk'), () => {
  const refund = refundAgent('refund');
  const desk = new ScriptedModel(
    [
      (request) => {
        const last = request.messages.at(-1);
        const result = last?.content.find((b) => 'toolResult' in b);
        if (result && 'toolResult' in result)
          return `desk: ${result.toolResult.content.map((c) => ('text' in c ? c.text : '')).join('')}`;
        const order = /order (\d+)/.exec(JSON.stringify(last?.content ?? []))?.[1] ?? '0';
        return { toolUses: [{ name: 'refund', input: { input: `Refund order ${order}` }, toolUseId: `ask-${order}` }] };
      },
    ],
    { loop: true, record: false },
  );
  return new Agent({ name: 'nestedDesk', model: desk, tools: [refund.asTool({ name: 'refund' })] });
});

const swarm = restateSwarm(service('handoffs'), () => {
  const billing = new Agent({
    name: 'billing',
    model: model('billing', ['lookup_order']),
    tools: [countedTool('lookup_order')],
  });
  const triage = new Agent({
    name: 'triage',
    model: new ScriptedModel(
      [
        (request) => (
          trace(`model triage ${request.messages.length}`),
          { toolUses: [{ name: 'transfer_to_billing', input: {}, toolUseId: 'handoff-1' }] }
        ),
      ],
      { loop: true, record: false },
    ),
    handoffs: [handoff(billing, { inputFilter: (data) => nestHandoffHistory(data) })],
  });
  return new Swarm({ id: 'handoffs', nodes: [triage, billing] });
});

// A swarm whose billing agent asks the customer a question from inside a tool (context.interrupt).
const confirmAddress = tool({
  name: 'confirm_address',
  description: 'Asks the customer where the replacement goes.',
  inputSchema: z.object({ orderId: z.string() }),
  callback: ({ orderId }, context) => {
    trace(`start confirm_address ${context.toolUse.toolUseId}`);
    const answer = context.interrupt('address', { question: `Where should the replacement for order ${orderId} go?` });
    trace(`end confirm_address ${context.toolUse.toolUseId}`);
    return `replacement for order ${orderId} goes to ${JSON.stringify(answer)}`;
  },
});
const askingSwarm = restateSwarm(service('askingSwarm'), () => {
  const billing = new Agent({ name: 'billing', model: model('billing', ['confirm_address']), tools: [confirmAddress] });
  const triage = new Agent({
    name: 'triage',
    model: new ScriptedModel(
      [
        (request) => (
          trace(`model triage ${request.messages.length}`),
          { toolUses: [{ name: 'transfer_to_billing', input: {}, toolUseId: 'handoff-1' }] }
        ),
      ],
      { loop: true, record: false },
    ),
    handoffs: [handoff(billing, { inputFilter: (data) => nestHandoffHistory(data) })],
  });
  return new Swarm({ id: 'askingSwarm', nodes: [triage, billing] });
});

const port = await restate.serve({
  port: Number(process.env['SKEIN_WORKER_PORT'] ?? 0),
  services: [conversation, parallel, graph, graphInline, swarm, askingSwarm, refunds, refundDesk, nestedDesk],
});
console.log(`listening ${port}`);
