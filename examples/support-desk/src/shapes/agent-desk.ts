/**
 * The desk as one agent with the specialists as tools (`asTool`): the desk agent keeps the
 * conversation, asks billing or refund, and relays their answers. Its own session stores the
 * conversation; after a crash an unanswered message is answered without being stored twice.
 */
import { Agent, type Prompt } from '@skein/core';
import { CONCIERGE_PROMPT } from '../desk-prompts.js';
import type { Desk, DeskParts, DeskProgress, DeskReply } from '../desk.js';
import { deskAgents } from './desk-agents.js';
import { reportAgentEvent } from './progress.js';
import { deskInjectionJudge, deskPii, storedForm, unlessBlocked } from '../desk-guardrails.js';

export function buildDeskAgent(parts: DeskParts): Agent {
  const agents = deskAgents(parts);
  return new Agent({
    name: 'desk',
    model: parts.modelFor('concierge'),
    systemPrompt: CONCIERGE_PROMPT,
    tools: [
      agents.billing.asTool({
        name: 'billing',
        description: 'Ask the billing agent (double charges, invoices, payments).',
      }),
      agents.refund.asTool({ name: 'refund', description: 'Ask the refund agent (money back for an order).' }),
    ],
    // The desk agent is the triage: the customer's message redacted and judged; every answer and tool call redacted.
    inputGuardrails: [deskPii, deskInjectionJudge(parts.modelFor('judge'))],
    outputGuardrails: [deskPii],
    toolGuardrails: [deskPii],
    ...(parts.sessionManager ? { sessionManager: parts.sessionManager } : {}),
    ...(parts.memory ? { memory: parts.memory } : {}),
  });
}

export function agentDesk(parts: DeskParts): Desk {
  const agent = buildDeskAgent(parts);
  const run = (prompt: Prompt | undefined, progress: DeskProgress): Promise<DeskReply> =>
    unlessBlocked(() => runOnce(prompt, progress));
  const runOnce = async (prompt: Prompt | undefined, progress: DeskProgress): Promise<DeskReply> => {
    const stream = agent.stream(prompt, { budget: parts.budget, memory: parts.customer });
    for (let step = await stream.next(); ; step = await stream.next()) {
      if (step.done) {
        const result = step.value;
        if (result.stopReason === 'interrupt')
          return { text: String(result), status: 'interrupted', interrupts: result.interrupts };
        return { text: String(result), status: result.stopReason === 'end_turn' ? 'completed' : result.stopReason };
      }
      reportAgentEvent(step.value, progress, 'desk', true);
    }
  };
  return {
    shape: 'agent',
    turn: (message, progress) => run(message, progress),
    answer: (responses, progress) => run(responses, progress),
    async resume(message, progress) {
      await agent.initialize();
      const last = agent.messages.at(-1);
      // As stored: the desk's guardrails redacted its personal data.
      const kept = storedForm(message);
      const stored = agent.messages.some(
        (m) => m.role === 'user' && m.content.some((b) => 'text' in b && b.text === kept),
      );
      if (!stored) return run(message, progress);
      // Stored but unanswered: continue from the history instead of storing the message twice.
      if (last?.role === 'user') return run(undefined, progress);
      // Answered before the crash: the answer is in the session.
      return { text: last ? last.content.map((b) => ('text' in b ? b.text : '')).join('') : '', status: 'completed' };
    },
  };
}
