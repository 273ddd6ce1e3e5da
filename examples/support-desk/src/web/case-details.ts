/**
 * The details of each case of a stored conversation, branch by branch, in the words of the customer
 * page (`client/desk-words.ts`): who routed the case where, the case notes, the tool calls and what
 * came of them, the agents' own texts. A Graph or Swarm keeps every run's steps (one run per
 * customer message): the transitions each step made, where each node agent's history stood (a graph),
 * the turns each member added (a swarm). The one-agent desk keeps one history, cut at each message.
 * Pure but for reading a node agent's messages (`messagesOf`): the rest of the reading is in
 * `details-route.ts`.
 */
import type { Message, NodeTransition, SessionMessage, StoredStep } from '@skein/core';
import { callAnswer, callDone, callFailed, internalText, stepWords } from './client/desk-words.js';
import type { DetailBranch } from './client/story.js';

/** A line of a branch. */
interface Line {
  who: string;
  line: string;
}

const textOf = (m: Message): string => m.content.flatMap((b) => ('text' in b ? [b.text] : [])).join('');

/** The lines of an agent's messages: its tool calls with what came of them, and its own texts (not `skip`, the answers). */
function messageLines(messages: readonly Message[], who: string, skip: ReadonlySet<string>): Line[] {
  const uses = new Map<string, { name: string; input: unknown }>();
  const out: Line[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if ('toolUse' in block)
        uses.set(block.toolUse.toolUseId, { name: block.toolUse.name, input: block.toolUse.input });
      else if ('toolResult' in block) {
        const use = uses.get(block.toolResult.toolUseId);
        // A swarm's transfer is its handoff line (with the message it left).
        if (!use || use.name.startsWith('transfer_to_')) continue;
        const text = block.toolResult.content.map((c) => ('text' in c ? c.text : '')).join('');
        if (block.toolResult.status === 'success') {
          out.push({ who, line: callDone(use.name, use.input) });
          const answered = callAnswer(use.name, text);
          if (answered) out.push({ who, line: answered });
        } else out.push({ who, line: callFailed(use.name, use.input, text) });
      }
    }
    const text = message.role === 'assistant' ? textOf(message).trim() : '';
    if (text && !skip.has(text)) out.push({ who, line: internalText(text) });
  }
  return out;
}

/** The routing lines of transitions, each under the node it concerns. */
function transitionLines(transitions: readonly NodeTransition[]): Line[] {
  return transitions.flatMap((t) => {
    const line = stepWords(t.kind, t.to, t.reason);
    const who = t.kind === 'join' || t.kind === 'resume' ? t.to : t.from;
    return line && who ? [{ who, line }] : [];
  });
}

/** Branches in the order their node first comes in the run, each with its lines in the order they happened. */
function branches(order: readonly string[], lines: readonly Line[]): DetailBranch[] {
  const names = [...new Set([...order, ...lines.map((l) => l.who)])];
  return names
    .map((who) => ({ who, lines: [...new Set(lines.filter((l) => l.who === who).map((l) => l.line))] }))
    .filter((b) => b.lines.length > 0);
}

/** Messages with `message_id` in `[from, to)`; a history that was reset since (ids started over) from its start. */
const slice = (rows: readonly SessionMessage[], from: number, to: number): SessionMessage[] =>
  rows.filter((r) => r.message_id >= (to < from ? 0 : from) && r.message_id < to);

/**
 * A Graph's or Swarm's cases: one per run, in order. `messagesOf` reads a node agent's stored
 * messages; `orchestratorId` prefixes node agents' ids (`desk-graph.billing`). `skip`: texts that are
 * the answers (shown as the answer, not again in the details).
 */
export async function orchestratorDetails(
  steps: readonly StoredStep[],
  orchestratorId: string,
  messagesOf: (storeId: string) => Promise<SessionMessage[]>,
  skip: ReadonlySet<string>,
): Promise<DetailBranch[][]> {
  const runs = [...new Set(steps.map((s) => s.run))].sort((a, b) => a - b);
  const cases: DetailBranch[][] = [];
  for (const run of runs) {
    const mine = steps.filter((s) => s.run === run);
    const lines: Line[] = [];
    // Step by step: what each node agent's history gained by the step (a graph), the turns the step
    // committed (a swarm), then the transitions it made; so a branch's lines come in the order they happened.
    const at = new Map(Object.entries(mine[0]?.agents ?? {}).map(([id, a]) => [id, a.nextMessageId]));
    for (const s of mine) {
      for (const [storeId, { nextMessageId: end }] of Object.entries(s.agents)) {
        const from = at.get(storeId) ?? 0;
        at.set(storeId, end);
        if (end === from) continue;
        const who = storeId.startsWith(`${orchestratorId}.`) ? storeId.slice(orchestratorId.length + 1) : storeId;
        const rows = slice(await messagesOf(storeId), from, end);
        lines.push(
          ...messageLines(
            rows.map((r) => r.message),
            who,
            skip,
          ),
        );
      }
      for (const [id, entry] of Object.entries(s.nodes)) {
        if (!id.startsWith('run.turn.') || typeof entry['node'] !== 'string' || !Array.isArray(entry['newItems']))
          continue;
        lines.push(...messageLines(entry['newItems'] as unknown as Message[], entry['node'], skip));
      }
      lines.push(...transitionLines(s.transitions));
    }
    const order = mine.flatMap((s) => s.transitions.flatMap((t) => (t.to ? [t.to] : [])));
    cases.push(branches(order, lines));
  }
  return cases;
}

/** The one-agent desk's cases: its history cut at each message the customer wrote. */
export function agentDetails(messages: readonly Message[], skip: ReadonlySet<string>): DetailBranch[][] {
  const cases: Message[][] = [];
  for (const message of messages) {
    const fromCustomer = message.role === 'user' && message.content.some((b) => 'text' in b);
    if (fromCustomer || cases.length === 0) cases.push([]);
    (cases[cases.length - 1] as Message[]).push(message);
  }
  return cases.map((list) => branches(['desk'], messageLines(list, 'desk', skip)));
}
