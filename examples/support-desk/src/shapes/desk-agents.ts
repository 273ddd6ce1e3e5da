/** The desk's agents, shared by every shape: triage, billing and refund with their tools. */
import { Agent } from '@skein/core';
import { BILLING_PROMPT, NOTES_PROMPT, REFUND_PROMPT, SUMMARY_PROMPT } from '../desk-prompts.js';
import { deskTools } from '../desk-tools.js';
import type { DeskParts } from '../desk.js';

export interface DeskAgents {
  billing: Agent;
  refund: Agent;
  notes: Agent;
  summary: Agent;
}

export function deskAgents(parts: DeskParts): DeskAgents {
  const tools = deskTools(parts.store);
  return {
    billing: new Agent({
      name: 'billing',
      description: 'Billing: double charges, invoices, payments.',
      handoffDescription: 'Double charges, invoices and payments.',
      model: parts.modelFor('billing'),
      systemPrompt: BILLING_PROMPT,
      tools: [tools.lookupOrder, tools.reverseDuplicateCharge],
    }),
    refund: new Agent({
      name: 'refund',
      description: 'Refunds: money back for an order.',
      handoffDescription: 'Money back for an order.',
      model: parts.modelFor('refund'),
      systemPrompt: REFUND_PROMPT,
      tools: [tools.lookupOrder, tools.issueRefund],
    }),
    notes: new Agent({ name: 'notes', model: parts.modelFor('notes'), systemPrompt: NOTES_PROMPT }),
    summary: new Agent({ name: 'summary', model: parts.modelFor('summary'), systemPrompt: SUMMARY_PROMPT }),
  };
}
