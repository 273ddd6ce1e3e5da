/** The desk's agents, shared by every shape: triage, billing and refund with their tools. */
import { RemoteAgent } from '@skein/a2a';
import { Agent, type AgentOptions } from '@skein/core';
import { BILLING_PROMPT, NOTES_PROMPT, REFUND_PROMPT, SUMMARY_PROMPT } from '../desk-prompts.js';
import { deskTools } from '../desk-tools.js';
import type { DeskParts } from '../desk.js';

export interface DeskAgents {
  billing: Agent;
  refund: Agent;
  notes: Agent;
  summary: Agent;
}

/** The refund agent's options (the desk's own, or one served on its own with `npm run desk:a2a -- --serve refund`). */
export function refundAgentOptions(parts: Pick<DeskParts, 'store' | 'modelFor'>): AgentOptions {
  const tools = deskTools(parts.store);
  return {
    name: 'refund',
    description: 'Refunds: money back for an order.',
    handoffDescription: 'Money back for an order.',
    model: parts.modelFor('refund'),
    systemPrompt: REFUND_PROMPT,
    tools: [tools.lookupOrder, tools.issueRefund],
  };
}

/**
 * The refund agent: the desk's own, or (with `refundRemote`) a stand-in for the one served over A2A,
 * whose calls are recorded in the desk's session so a crash resumes the remote task.
 */
function refundAgent(parts: DeskParts): Agent {
  if (!parts.refundRemote) return new Agent(refundAgentOptions(parts));
  return new RemoteAgent({
    name: 'refund',
    url: parts.refundRemote,
    description: 'Refunds: money back for an order.',
    ...(parts.refundRemoteKey ? { headers: { authorization: `Bearer ${parts.refundRemoteKey}` } } : {}),
    ...(parts.sessionManager ? { sessionManager: parts.sessionManager } : {}),
  }).asAgent();
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
    refund: refundAgent(parts),
    notes: new Agent({ name: 'notes', model: parts.modelFor('notes'), systemPrompt: NOTES_PROMPT }),
    summary: new Agent({ name: 'summary', model: parts.modelFor('summary'), systemPrompt: SUMMARY_PROMPT }),
  };
}
