/**
 * A Restate worker for the tests, run as its own process so tests can SIGKILL it: an agent
 * conversation, a support graph and a swarm, on scripted models that are pure functions of the
 * request (a retry on a fresh process answers the same). Every model call and tool run appends a
 * line to `SKEIN_TRACE_FILE`, so a test can count what ran.
 */
import { appendFileSync } from 'node:fs';
import * as restate from '@restatedev/restate-sdk';
import { z } from 'zod';
import { Agent, tool, type ModelRequest } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { handoff, nestHandoffHistory } from '@skein/handoffs';
import { Swarm } from '@skein/swarm';
import { restateAgent, restateGraph, restateSwarm } from '../index.js';

const traceFile = process.env['SKEIN_TRACE_FILE'] ?? '/dev/null';
const toolDelayMs = Number(process.env['SKEIN_TOOL_DELAY_MS'] ?? 0);
const trace = (line: string): void => appendFileSync(traceFile, `${line}\n`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const lastUserText = (request: ModelRequest): string => {
  for (const m of [...request.messages].reverse()) {
    if (m.role === 'user' && m.content.some((b) => 'text' in b)) return m.content.map((b) => ('text' in b ? b.text : '')).join('');
  }
  return '';
};
const allText = (request: ModelRequest): string => request.messages.flatMap((m) => m.content).map((b) => ('text' in b ? b.text : '')).join('\n');
const resultsSoFar = (request: ModelRequest): number => request.messages.flatMap((m) => m.content).filter((b) => 'toolResult' in b).length;

/** A model that plays `name`: asks for `tools` (each with the turn's order id) once, then answers. */
function model(name: string, tools: string[]): ScriptedModel {
  return new ScriptedModel(
    [
      (request): ScriptedTurn => {
        const done = resultsSoFar(request);
        trace(`model ${name} ${request.messages.length}`);
        const orderId = /[Oo]rder (\d+)/.exec(lastUserText(request))?.[1] ?? /[Oo]rder (\d+)/.exec(allText(request))?.[1] ?? '0';
        const last = request.messages.at(-1);
        if (tools.length > 0 && !(last?.role === 'user' && last.content.some((b) => 'toolResult' in b))) {
          return { toolUses: tools.map((t, i) => ({ name: t, input: { orderId }, toolUseId: `${name}-${t}-${done + i}` })) };
        }
        return `${name} handled order ${orderId} (${done} tool results seen).`;
      },
    ],
    { loop: true, record: false },
  );
}

const countedTool = (name: string, needsApproval = false) =>
  tool({
    name,
    description: `The ${name} tool.`,
    needsApproval,
    inputSchema: z.object({ orderId: z.string() }),
    callback: async ({ orderId }, context) => {
      trace(`start ${name} ${context.toolUse.toolUseId}`);
      await sleep(toolDelayMs);
      trace(`end ${name} ${context.toolUse.toolUseId}`);
      return `${name} done for order ${orderId}`;
    },
  });

const conversation = restateAgent('support', () => new Agent({ name: 'support', model: model('support', ['lookup_order']), tools: [countedTool('lookup_order')] }));
const parallel = restateAgent('parallel', () =>
  new Agent({ name: 'parallel', model: model('parallel', ['lookup_order', 'check_invoice', 'check_refunds']), tools: ['lookup_order', 'check_invoice', 'check_refunds'].map((t) => countedTool(t)) }),
);

const graph = restateGraph('desk', () => {
  const agent = (name: string, tools: string[]): Agent => new Agent({ name, model: model(name, tools), tools: tools.map((t) => countedTool(t)) });
  return new GraphBuilder()
    .addNode(agent('triage', []), 'triage')
    .addNode(agent('billing', ['lookup_order']), 'billing')
    .addNode(agent('audit', ['check_invoice']), 'audit')
    .addNode(agent('summary', []), 'summary')
    .addEdge('triage', 'billing')
    .addEdge('triage', 'audit')
    .addEdge(['billing', 'audit'], 'summary')
    .build();
});

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

const port = await restate.serve({ port: Number(process.env['SKEIN_WORKER_PORT'] ?? 0), services: [conversation, parallel, graph, swarm, refunds, refundDesk] });
console.log(`listening ${port}`);
