import type { ContentBlock, Message } from '@skein/core';
import { blockText } from '../view/message-text.js';
import type { NodeResultView, RunView } from '../view/run-types.js';
import { runView } from '../view/run-view.js';
import type { MessageView, Problem, SessionView } from '../view/session-view.js';
import type { StepView } from '../view/steps-view.js';
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
  /** The stored agent it shows (the step slider cuts it at the step's message count). */
  agentId?: string;
  /** A swarm turn: its orchestrator and seq (the step slider shows it from the step that committed it). */
  turn?: { orchestrator: string; seq: number };
}

/** One kept step, as the page's step slider replays it: what changed since the step before. */
export interface PageStep {
  step: number;
  status: string;
  /** Transitions with a smaller seq had happened. */
  transitionCount: number;
  running: string[];
  waiting: string[];
  paused: string[];
  /** Nodes whose latest result this step stored, with its status. */
  settled: Record<string, string>;
  /** Member agents whose stored history this step moved: the message count then. */
  agents: Record<string, number>;
  /** A swarm's committed turns. */
  turns?: number;
  /** The run's tokens then (counted as the run's total). */
  tokens?: number;
  /** The node results this step stored (what the node table shows from this step on). */
  results: Record<string, NodeResultView>;
  /** When the step was committed, in ms since the run's first transition. */
  atMs: number;
}

/** Everything the page draws, embedded as JSON (export) or fetched live (serve). */
export interface PageData {
  session: { id: string; type: string; updatedAt: string | undefined };
  /** `received`: what each handoff's receiver got, by transition seq (`received 1 of 3 messages; shared triage.orderId`). */
  runs: { run: RunView; layout: GraphLayout; received: Record<number, string>; steps: PageStep[] }[];
  conversations: PageConversation[];
  problems: Problem[];
  generatedAt: string;
}

/** A block's line and full text; a text the line shows whole is one block (not a heading repeated in a box below it). */
function pageBlock(block: ContentBlock): { short: string; full: string } {
  const short = blockText(block);
  const full = blockText(block, true);
  const whole = 'text' in block && !short.endsWith('…') && short.trim() === full.replace(/\s+/g, ' ').trim();
  return whole ? { short: full.trim(), full: full.trim() } : { short, full };
}

const pageMessage = (m: MessageView): PageMessage => {
  const out: PageMessage = {
    id: m.id,
    role: m.message?.role ?? '?',
    redacted: m.redacted,
    blocks: (m.message?.content ?? []).map(pageBlock),
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
        turn: { orchestrator: o.id, seq: Number(entry['seq']) },
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

/** The steps as deltas (what each one changed), so that the page stays in proportion to the run; `t0` is the run's first transition. */
function pageSteps(steps: readonly StepView[], t0: number): PageStep[] {
  let done: Record<string, string> = {};
  let agents: Record<string, number> = {};
  return steps.map((s) => {
    const settled = Object.fromEntries(Object.entries(s.done).filter(([id, st]) => done[id] !== st));
    const moved = Object.fromEntries(Object.entries(s.agents).filter(([id, n]) => agents[id] !== n));
    done = s.done;
    agents = s.agents;
    return {
      step: s.step,
      status: s.status,
      transitionCount: s.transitionCount,
      running: s.running,
      waiting: s.waiting,
      paused: s.paused,
      settled,
      agents: moved,
      ...(s.turns !== undefined ? { turns: s.turns } : {}),
      ...(s.tokens !== undefined ? { tokens: s.tokens } : {}),
      results: s.results,
      atMs: Math.max(0, Date.parse(s.at) - t0),
    };
  });
}

/** Builds the page's data from a loaded session. */
export function pageData(session: SessionView, now = new Date()): PageData {
  const runs = session.orchestrators.map((o) => {
    const run = runView(o);
    const received = Object.fromEntries(
      run.transitions.flatMap((t) => (t.kind === 'handoff' && handoffReceived(t) ? [[t.seq, handoffReceived(t)]] : [])),
    );
    const t0 = run.transitions[0] ? Date.parse(run.transitions[0].at) : 0;
    return { run, layout: layoutGraph(run.shape), received, steps: pageSteps(o.steps ?? [], t0) };
  });
  const agents: PageConversation[] = session.agents.map((a) => ({
    title: `agent ${a.id}`,
    nodeId: nodeOf(a.id, session),
    messages: a.messages.map(pageMessage),
    agentId: a.id,
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
