import type { Message } from '@skein/core';
import { blockText } from '../view/message-text.js';
import { runView, type RunView } from '../view/run-view.js';
import type { MessageView, Problem, SessionView } from '../view/session-view.js';
import { layoutGraph, type GraphLayout } from './graph-layout.js';
import { handoffReceived } from './handoff-received.js';

/** A message as the page shows it: one line per block, and the full text behind a click. */
export interface PageMessage {
  id: number;
  role: string;
  redacted: boolean;
  blocks: { short: string; full: string }[];
  problem?: string;
}

/** A conversation on the page: a node agent's messages, or a swarm turn's new items. */
export interface PageConversation {
  /** `agent billing`, `turn 3: refund`. */
  title: string;
  /** The graph or swarm node it belongs to, when known. */
  nodeId: string | undefined;
  messages: PageMessage[];
}

/** Everything the page draws, embedded as JSON (export) or fetched live (serve). */
export interface PageData {
  session: { id: string; type: string; updatedAt: string | undefined };
  /** `received`: what each handoff's receiver got, by transition seq (`received 1 of 3 messages; shared triage.orderId`). */
  runs: { run: RunView; layout: GraphLayout; received: Record<number, string> }[];
  conversations: PageConversation[];
  problems: Problem[];
  generatedAt: string;
}

const pageMessage = (m: MessageView): PageMessage => {
  const out: PageMessage = {
    id: m.id,
    role: m.message?.role ?? '?',
    redacted: m.redacted,
    blocks: (m.message?.content ?? []).map((b) => ({ short: blockText(b), full: blockText(b, true) })),
  };
  if (m.problem !== undefined) out.problem = m.problem;
  return out;
};

function swarmTurns(session: SessionView): PageConversation[] {
  const out: PageConversation[] = [];
  for (const o of session.orchestrators) {
    const turns = Object.entries(o.nodes)
      .filter(([id]) => id.startsWith('run.turn.'))
      .sort(([a], [b]) => a.localeCompare(b));
    for (const [, entry] of turns) {
      const node = typeof entry['node'] === 'string' ? entry['node'] : '?';
      const items = Array.isArray(entry['newItems']) ? (entry['newItems'] as unknown as Message[]) : [];
      out.push({
        title: `${o.id} turn ${String(entry['seq'])}: ${node}`,
        nodeId: node,
        messages: items.map((message, i) => pageMessage({ id: i, message, redacted: false })),
      });
    }
  }
  return out;
}

/** The node an agent belongs to: its id, or `<orchestrator>.<node>`. */
function nodeOf(agentId: string, session: SessionView): string | undefined {
  for (const o of session.orchestrators) if (agentId.startsWith(`${o.id}.`)) return agentId.slice(o.id.length + 1);
  return session.orchestrators.length > 0 ? agentId : undefined;
}

/** Builds the page's data from a loaded session. */
export function pageData(session: SessionView, now = new Date()): PageData {
  const runs = session.orchestrators.map((o) => {
    const run = runView(o);
    const received = Object.fromEntries(
      run.transitions.flatMap((t) => (t.kind === 'handoff' && handoffReceived(t) ? [[t.seq, handoffReceived(t)]] : [])),
    );
    return { run, layout: layoutGraph(run.shape), received };
  });
  const agents: PageConversation[] = session.agents.map((a) => ({
    title: `agent ${a.id}`,
    nodeId: nodeOf(a.id, session),
    messages: a.messages.map(pageMessage),
  }));
  const problems = [
    ...session.problems,
    ...session.agents.flatMap((a) => a.problems),
    ...session.orchestrators.flatMap((o) => o.problems),
  ];
  return {
    session: { id: session.id, type: session.type, updatedAt: session.updatedAt },
    runs,
    conversations: [...agents, ...swarmTurns(session)],
    problems,
    generatedAt: now.toISOString(),
  };
}
