/** The desk's tools over its store: zod schemas, answers the model can read, errors it can act on. */
import { z } from 'zod';
import { tool, type AgentTool } from '@skein/core';
import type { DeskStore } from './desk-store.js';
import { ownOrdersOnly } from './desk-guardrails.js';

export interface DeskTools {
  lookupOrder: AgentTool;
  reverseDuplicateCharge: AgentTool;
  issueRefund: AgentTool;
}

/** `DESK_TOOL_DELAY_MS` slows every tool down, as a remote backend would (demos of a crash mid-tool use it). */
/** Refunds above this many EUR wait for a person's yes (`DESK_APPROVAL_OVER_EUR`, default 50). */
const approvalOver = (): number => Number(process.env['DESK_APPROVAL_OVER_EUR'] ?? 50);

const backendDelay = async (): Promise<void> => {
  const ms = Number(process.env['DESK_TOOL_DELAY_MS'] ?? 0);
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
};

export function deskTools(store: DeskStore): DeskTools {
  const lookupOrder = tool({
    name: 'lookup_order',
    description:
      'Looks up an order by its number: item, amount, status, customer, invoice (with how many times it was charged) and refunds so far.',
    inputSchema: z.object({ orderId: z.string().describe('The order number, e.g. "42"') }),
    callback: async ({ orderId }) => {
      await backendDelay();
      const order = await store.order(orderId);
      if (!order) throw new Error(`There is no order ${orderId}. Ask the customer to check the number.`);
      return { ...order, refunds: await store.refunds(orderId) };
    },
  });
  const reverseDuplicateCharge = tool({
    name: 'reverse_duplicate_charge',
    description: 'Reverses a duplicate charge on an invoice that was charged more than once.',
    inputSchema: z.object({ invoiceId: z.string().describe('The invoice id, e.g. "INV-42"') }),
    callback: async ({ invoiceId }) => {
      await backendDelay();
      return store.reverseDuplicateCharge(invoiceId);
    },
  });
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refunds an amount of an order to the customer (at most what was paid and not refunded yet).',
    inputSchema: z.object({
      orderId: z.string().describe('The order number'),
      amountEur: z.number().positive().describe('The amount to refund, in EUR'),
      reason: z.string().describe("Why, in the customer's words"),
    }),
    needsApproval: ({ amountEur }) => amountEur > approvalOver(),
    // Only an order of the signed-in customer (checked before the approval is asked and before it pays).
    guardrails: [ownOrdersOnly(store)],
    // The payment goes out under the call's idempotency key: a call cut by a crash after it paid, and
    // run again on resume, gets the refund already made instead of paying twice.
    callback: async ({ orderId, amountEur, reason }, context) => {
      await backendDelay();
      const refund = await store.refund(orderId, amountEur, reason, context.idempotencyKey);
      await backendDelay();
      return refund;
    },
  });
  return { lookupOrder, reverseDuplicateCharge, issueRefund };
}
