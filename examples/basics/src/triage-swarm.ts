/**
 * The typical support app: a triage agent hands the customer to a billing agent, which hands a
 * refund to the refund agent. Runs on scripted models (no credentials needed) and prints what happens:
 * node starts, streamed text, tool calls, transfers, and the final result.
 * Run: node --conditions=@skein/source --import tsx examples/basics/src/triage-swarm.ts
 */
import { z } from 'zod';
import { Agent, tool } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { handoff, promptWithHandoffInstructions, removeAllTools } from '@skein/handoffs';
import { Swarm } from '@skein/swarm';

const lookupInvoice = tool({
  name: 'lookup_invoice',
  description: 'Finds the charges of an order.',
  inputSchema: z.object({ orderId: z.string() }),
  callback: ({ orderId }) => ({
    orderId,
    charges: [
      { amount: 49.9, at: '2025-05-01' },
      { amount: 49.9, at: '2025-05-01' },
    ],
  }),
});

const refund = new Agent({
  name: 'Refund agent',
  handoffDescription: 'Issues refunds for orders.',
  systemPrompt: promptWithHandoffInstructions('You issue refunds. Confirm the amount and the order to the customer.'),
  model: new ScriptedModel(
    ['I have refunded 49.90 for the duplicate charge on order 42. It will reach your card within 5 business days.'],
    { chunkSize: 16 },
  ),
});

const refundHandoff = handoff(refund, {
  inputType: z.object({ orderId: z.string(), amount: z.number().positive() }),
  onHandoff: (ctx, input) =>
    console.log(`\n[onHandoff] ${ctx.agent.name} asks for a refund of ${input.amount} on order ${input.orderId}`),
  inputFilter: removeAllTools,
});

const billing = new Agent({
  name: 'Billing agent',
  handoffDescription: 'Answers questions about invoices and charges.',
  systemPrompt: promptWithHandoffInstructions('You explain invoices and charges. Hand refunds to the refund agent.'),
  tools: [lookupInvoice],
  handoffs: [refundHandoff],
  model: new ScriptedModel(
    [
      { text: 'Let me look at the invoice.', toolUses: [{ name: 'lookup_invoice', input: { orderId: '42' } }] },
      {
        text: 'There is a duplicate charge.',
        toolUses: [{ name: 'transfer_to_refund_agent', input: { orderId: '42', amount: 49.9 } }],
      },
    ],
    { chunkSize: 16 },
  ),
});

const triage = new Agent({
  name: 'Triage agent',
  systemPrompt: promptWithHandoffInstructions('You greet customers and pass them to the right specialist.'),
  handoffs: [billing, refund],
  model: new ScriptedModel(
    [
      {
        text: 'I will get our billing team to look at this.',
        toolUses: [{ name: 'transfer_to_billing_agent', input: {} }],
      },
    ],
    { chunkSize: 16 },
  ),
});

const swarm = Swarm.fromAgent(triage, {
  maxHandoffs: 5,
  repetitiveHandoffDetectionWindow: 6,
  repetitiveHandoffMinUniqueAgents: 2,
});
console.log(`members: ${swarm.nodeIds.join(', ')}`);

const stream = swarm.stream('Hi, I was charged twice for order 42.');
for (let step = await stream.next(); ; step = await stream.next()) {
  if (step.done) {
    const result = step.value;
    console.log(`\n\nstatus: ${result.status}${result.failureReason ? ` (${result.failureReason})` : ''}`);
    console.log(`path: ${result.nodeHistory.join(' -> ')} (${result.handoffCount} handoffs)`);
    console.log(`tokens: ${result.accumulatedUsage.totalTokens}; answer from ${result.finalNodeId}: ${result.text}`);
    break;
  }
  const event = step.value;
  if (event.type === 'nodeStart') process.stdout.write(`\n\n== ${event.nodeId} ==\n`);
  if (event.type === 'transition')
    console.log(
      `\n[transition] ${event.transition.kind}: ${event.transition.from ?? '-'} -> ${event.transition.to ?? '-'} (${event.transition.reason})`,
    );
  if (event.type === 'nodeStream' && 'type' in event.event) {
    const inner = event.event;
    if (inner.type === 'textDelta') process.stdout.write(inner.data);
    if (inner.type === 'toolStart')
      process.stdout.write(`\n[tool] ${inner.toolUse.name} ${JSON.stringify(inner.toolUse.input)}`);
    if (inner.type === 'toolResult')
      process.stdout.write(`\n[tool result] ${inner.toolResult.status} ${JSON.stringify(inner.toolResult.content)}\n`);
  }
}
