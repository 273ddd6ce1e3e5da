/**
 * A support graph: triage routes a request to billing or refund with conditional edges; both
 * branches end at a summary node. Driven by scripted models so it runs offline; replace them with
 * `new BedrockModel()` or `new AnthropicModel()` for real answers.
 * Run: node --conditions=@skein/source --import tsx examples/basics/src/graph-triage.ts "I was charged twice"
 */
import { Agent, InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder, type GraphState } from '@skein/graph';

const request = process.argv[2] ?? 'I was charged twice for order 42.';
const route = /refund|return/i.test(request) ? 'REFUND' : 'BILLING';

const triage = new Agent({
  name: 'triage',
  systemPrompt: 'Classify the request. Answer BILLING or REFUND, then one sentence why.',
  model: new ScriptedModel([`${route}: the customer writes "${request}"`]),
});
const billing = new Agent({
  name: 'billing',
  model: new ScriptedModel(['Billing: the duplicate charge on order 42 is reversed.']),
});
const refund = new Agent({ name: 'refund', model: new ScriptedModel(['Refund: a return label is on its way.']) });
const summary = new Agent({ name: 'summary', model: new ScriptedModel(['Summary: resolved in one step.']) });

const isBilling = (s: GraphState): boolean => s.results['triage']?.text.startsWith('BILLING') ?? false;
const isRefund = (s: GraphState): boolean => s.results['triage']?.text.startsWith('REFUND') ?? false;

const graph = new GraphBuilder()
  .setId('support')
  .addNode(triage)
  .addNode(billing)
  .addNode(refund)
  .addNode(summary)
  .addEdge('triage', 'billing', isBilling)
  .addEdge('triage', 'refund', isRefund)
  .addEdge('billing', 'summary')
  .addEdge('refund', 'summary')
  .setNodeTimeout(60_000)
  .setSessionManager(
    new RepositorySessionManager({ sessionId: 'example', repository: new InMemorySessionRepository() }),
  )
  .build();

console.log(graph.toMermaid(), '\n');
const stream = graph.stream(request);
for (let step = await stream.next(); ; step = await stream.next()) {
  if (step.done) {
    const result = step.value;
    console.log(
      `\nstatus: ${result.status}; order: ${result.executionOrder.join(' -> ')}; tokens: ${result.accumulatedUsage.totalTokens}`,
    );
    console.log(`answer: ${result.results['summary']?.text ?? ''}`);
    break;
  }
  const event = step.value;
  if (event.type === 'nodeStart') console.log(`[${event.nodeId}] started`);
  if (event.type === 'nodeStop') console.log(`[${event.nodeId}] ${event.result.status}: ${event.result.text}`);
  if (event.type === 'transition') console.log(`  ${event.transition.kind}: ${event.transition.reason}`);
}
