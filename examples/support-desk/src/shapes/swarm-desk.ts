/**
 * The desk as a Swarm: triage hands the customer over with `transfer_to_billing` (the history
 * nested into one summary message) or `transfer_to_refund` (tool calls removed), leaving a message
 * and sharing the order id (the swarm's shared context, which every later agent sees in its
 * transfer note). The swarm's session makes a crashed run resume at the node that was running.
 */
import { z } from 'zod';
import { Agent, type Prompt } from '@skein/core';
import { handoff, nestHandoffHistory, promptWithHandoffInstructions, removeAllTools } from '@skein/handoffs';
import { Swarm } from '@skein/swarm';
import { TRIAGE_PROMPT } from '../desk-prompts.js';
import type { Desk, DeskParts, DeskProgress, DeskReply } from '../desk.js';
import { deskAgents } from './desk-agents.js';
import { reportOrchestratorEvent } from './progress.js';
import { deskInjectionJudge, deskPii, unlessBlocked } from '../desk-guardrails.js';

/** What a transfer carries: a message for the specialist and facts every later agent sees (the swarm reads `message` and `context`). */
const DeskTransfer = z.object({
  message: z.string().optional().describe('What the specialist should know: the request in your words.'),
  context: z.object({ orderId: z.string().optional().describe('The order the customer is asking about.') }).optional(),
});

/** The desk swarm's id (its record in a conversation's session). */
export const DESK_SWARM_ID = 'desk-swarm';

export function buildDeskSwarm(parts: DeskParts): Swarm {
  const agents = deskAgents(parts);
  const triage = new Agent({
    name: 'triage',
    model: parts.modelFor('triage'),
    systemPrompt: promptWithHandoffInstructions(TRIAGE_PROMPT),
    handoffs: [
      handoff(agents.billing, { inputType: DeskTransfer, inputFilter: (data) => nestHandoffHistory(data) }),
      handoff(agents.refund, { inputType: DeskTransfer, inputFilter: removeAllTools }),
    ],
  });
  return new Swarm({
    id: DESK_SWARM_ID,
    nodes: [triage, agents.billing, agents.refund],
    maxHandoffs: 4,
    // The customer's message is the triage's input: checked once, redacted, judged; every answer and tool call redacted.
    inputGuardrails: [deskPii, deskInjectionJudge(parts.modelFor('judge'))],
    outputGuardrails: [deskPii],
    toolGuardrails: [deskPii],
    ...(parts.sessionManager ? { sessionManager: parts.sessionManager } : {}),
    ...(parts.memory ? { memory: parts.memory } : {}),
  });
}

export function swarmDesk(parts: DeskParts): Desk {
  const swarm = buildDeskSwarm(parts);
  const turn = (message: Prompt, progress: DeskProgress): Promise<DeskReply> =>
    unlessBlocked(() => run(message, progress));
  const run = async (message: Prompt, progress: DeskProgress): Promise<DeskReply> => {
    const stream = swarm.stream(message, { budget: parts.budget, memory: parts.customer });
    for (let step = await stream.next(); ; step = await stream.next()) {
      if (step.done) {
        const result = step.value;
        if (result.interrupts) return { text: result.text, status: 'interrupted', interrupts: result.interrupts };
        return {
          text: result.text,
          status:
            result.status === 'completed'
              ? 'completed'
              : `${result.status}${result.failureReason ? `: ${result.failureReason}` : ''}`,
        };
      }
      reportOrchestratorEvent(step.value, progress, () => true);
    }
  };
  return { shape: 'swarm', turn, resume: turn, answer: turn };
}
