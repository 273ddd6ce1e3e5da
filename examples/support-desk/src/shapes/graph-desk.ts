/**
 * The desk as a Graph: triage routes by conditional edges to billing or refund; a case-notes node
 * runs beside the specialist; a join of notes + specialist feeds the summary that answers. One run
 * per customer message (each message is a case); the graph's session makes a crashed run resume.
 */
import { Agent, type Prompt } from '@skein/core';
import { GraphBuilder, type Graph, type GraphState } from '@skein/graph';
import { TRIAGE_ROUTE_PROMPT } from '../desk-prompts.js';
import type { Desk, DeskParts, DeskProgress, DeskReply } from '../desk.js';
import { deskAgents } from './desk-agents.js';
import { reportOrchestratorEvent } from './progress.js';
import { deskInjectionJudge, deskPii, unlessBlocked } from '../desk-guardrails.js';

const routedTo =
  (topic: string) =>
  (state: GraphState): boolean =>
    new RegExp(`ROUTE:\\s*${topic}`, 'i').test(state.results['triage']?.text ?? '');

/** The desk graph's id (its record in a conversation's session). */
export const DESK_GRAPH_ID = 'desk-graph';

export function buildDeskGraph(parts: DeskParts): Graph {
  const agents = deskAgents(parts);
  const triage = new Agent({
    name: 'triage',
    model: parts.modelFor('triage'),
    systemPrompt: TRIAGE_ROUTE_PROMPT,
    inputGuardrails: [deskInjectionJudge(parts.modelFor('judge'))],
  });
  const builder = new GraphBuilder()
    .setId(DESK_GRAPH_ID)
    .addNode(triage, 'triage')
    .addNode(agents.billing, 'billing')
    .addNode(agents.refund, 'refund')
    .addNode(agents.notes, 'notes')
    .addNode(agents.summary, 'summary')
    .addEdge('triage', 'billing', routedTo('billing'))
    .addEdge('triage', 'refund', routedTo('refund'))
    .addEdge('triage', 'notes', (s) => !routedTo('other')(s))
    .addEdge(['notes', 'billing'], 'summary')
    .addEdge(['notes', 'refund'], 'summary')
    .setEntryPoint('triage')
    .setMaxNodeExecutions(10)
    // Every customer message, every node's answer and every tool call: personal data redacted.
    .setGuardrails({ inputGuardrails: [deskPii], outputGuardrails: [deskPii], toolGuardrails: [deskPii] });
  if (parts.sessionManager) builder.setSessionManager(parts.sessionManager);
  if (parts.memory) builder.setMemory(parts.memory);
  return builder.build();
}

export function graphDesk(parts: DeskParts): Desk {
  const graph = buildDeskGraph(parts);
  const turn = (message: Prompt, progress: DeskProgress): Promise<DeskReply> =>
    unlessBlocked(() => run(message, progress));
  const run = async (message: Prompt, progress: DeskProgress): Promise<DeskReply> => {
    const stream = graph.stream(message, { budget: parts.budget, memory: parts.customer });
    for (let step = await stream.next(); ; step = await stream.next()) {
      if (step.done) {
        const result = step.value;
        const answer = result.results['summary'] ?? result.results['triage'];
        const text = (answer?.text ?? '').replace(/^ROUTE:\s*other\.?\s*/i, '');
        if (result.interrupts) return { text, status: 'interrupted', interrupts: result.interrupts };
        return {
          text,
          status:
            result.status === 'completed'
              ? 'completed'
              : `${result.status}${result.failureReason ? `: ${result.failureReason}` : ''}`,
        };
      }
      reportOrchestratorEvent(step.value, progress, (nodeId) => nodeId === 'summary');
    }
  };
  // An unfinished run resumes on the next invoke (the stored task wins over the argument).
  return { shape: 'graph', turn, resume: turn, answer: turn };
}
