/**
 * Scripted models that follow the conversation, so every path of the desk is reachable offline:
 * routing from the customer's words, tool calls with the order ids they mention, answers built from
 * the tools' results. Each is a `ScriptedModel` whose single turn is a function of the request.
 */
import type { JsonValue, Message, ModelRequest, ToolResultContent } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { MEMORY_HEADING } from '@skein/memory';
import { denialNote } from './web/client/desk-words.js';

export type DeskRole = 'triage' | 'billing' | 'refund' | 'notes' | 'summary' | 'concierge' | 'judge';

const textOf = (m: Message): string => m.content.map((b) => ('text' in b ? b.text : '')).join('');

/**
 * What the customer said, oldest first, wherever the orchestrator put it: a plain user message, the
 * `Original Task:` of a graph node's input, or `N. user: ...` lines of a nested handoff history.
 */
function customerLines(messages: readonly Message[]): string[] {
  const lines: string[] = [];
  for (const m of messages) {
    const text = textOf(m);
    if (!text) continue;
    for (const nested of text.matchAll(/^\d+\. user: (.*)$/gm)) if (nested[1]) lines.push(nested[1]);
    if (m.role !== 'user' || text.startsWith('[Transfer]') || /^\d+\. user: /m.test(text)) continue;
    lines.push(/Original Task: (.*)/.exec(text)?.[1] ?? text);
  }
  return lines;
}
const lastCustomerLine = (messages: readonly Message[]): string => customerLines(messages).at(-1) ?? '';

/** The order id an earlier agent shared in a swarm transfer (`Shared context (by agent): {...}` of the transfer note). */
function sharedOrderId(messages: readonly Message[]): string | undefined {
  for (const m of [...messages].reverse()) {
    const json = /^Shared context \(by agent\): (.*)$/m.exec(textOf(m))?.[1];
    if (!json) continue;
    const byAgent = JSON.parse(json) as Record<string, Record<string, unknown>>;
    const id = Object.values(byAgent)
      .map((facts) => facts['orderId'])
      .find((v) => typeof v === 'string');
    if (typeof id === 'string') return id;
  }
  return undefined;
}

/** The newest order number the customer mentioned ("order 42", "#42"). */
function orderIdIn(messages: readonly Message[]): string | undefined {
  for (const line of customerLines(messages).reverse()) {
    const match = /(?:order\s*(?:number\s*)?#?|#)\s*(\d+)/i.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

/**
 * The order the customer wrote about in an earlier conversation, as the desk's memory recalled it
 * (its part of the system prompt: `- [date, conversation c1] user: I was charged twice for order 42`).
 */
function rememberedOrderId(request: ModelRequest): string | undefined {
  const memory = (request.systemPrompt ?? '').split(MEMORY_HEADING)[1] ?? '';
  let found: string | undefined;
  for (const line of memory.matchAll(/^- \[[^\]]*\] user: (.*)$/gm)) {
    const match = /(?:order\s*(?:number\s*)?#?|#)\s*(\d+)/i.exec(line[1] ?? '');
    if (match) found = match[1];
  }
  return found;
}

/** The order a turn is about: the one the customer names, one an earlier agent shared, or one memory recalls. */
const orderFor = (request: ModelRequest): string | undefined =>
  orderIdIn(request.messages) ?? sharedOrderId(request.messages) ?? rememberedOrderId(request);

const amountIn = (line: string): number | undefined => {
  const match = /(\d+(?:[.,]\d+)?)\s*(?:eur|€|euros?)\b/i.exec(line);
  return match?.[1] ? Number(match[1].replace(',', '.')) : undefined;
};

function topicOf(line: string): 'refund' | 'billing' | 'other' {
  if (/refund|money back|return/i.test(line)) return 'refund';
  if (/charge|invoice|bill|twice|payment|paid/i.test(line)) return 'billing';
  return 'other';
}

interface ToolOutcome {
  name: string;
  ok: boolean;
  value: unknown;
  text: string;
}

/** The tool results of the last message, with the tool names from the message before. */
function lastToolOutcomes(messages: readonly Message[]): ToolOutcome[] {
  const last = messages.at(-1);
  const before = messages.at(-2);
  if (!last || last.role !== 'user' || !before) return [];
  const names = new Map(
    before.content.flatMap((b) => ('toolUse' in b ? [[b.toolUse.toolUseId, b.toolUse.name] as const] : [])),
  );
  return last.content.flatMap((b) => {
    if (!('toolResult' in b)) return [];
    const first: ToolResultContent | undefined = b.toolResult.content[0];
    const value = first && 'json' in first ? first.json : first && 'text' in first ? first.text : undefined;
    const text = b.toolResult.content
      .map((c) => ('text' in c ? c.text : 'json' in c ? JSON.stringify(c.json) : ''))
      .join('');
    return [{ name: names.get(b.toolResult.toolUseId) ?? '', ok: b.toolResult.status === 'success', value, text }];
  });
}

/** The newest call of tool `name`, to repeat one a crash cut off. */
function lastToolUse(messages: readonly Message[], name: string): { name: string; input: JsonValue } | undefined {
  for (const m of [...messages].reverse()) {
    for (const b of m.content) if ('toolUse' in b && b.toolUse.name === name) return { name, input: b.toolUse.input };
  }
  return undefined;
}

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** How the scripted triage turns a topic into a route: as is, or (to plant a bug in an evaluation) otherwise. */
type DeskRouting = (topic: 'refund' | 'billing' | 'other') => 'refund' | 'billing' | 'other';

function triage(request: ModelRequest, route: DeskRouting): ScriptedTurn {
  const topic = route(topicOf(lastCustomerLine(request.messages)));
  const offered = (request.toolSpecs ?? []).map((t) => t.name);
  const outcomes = lastToolOutcomes(request.messages);
  const cut = outcomes.find((o) => !o.ok && /interrupted/i.test(o.text));
  const again = cut && lastToolUse(request.messages, cut.name);
  if (again) return { text: 'That was cut off; asking again.', toolUses: [{ name: again.name, input: again.input }] };
  if (outcomes.length > 0) return outcomes.map((o) => o.text).join('\n');
  const transfer = offered.find((n) => n.startsWith('transfer_to_') && n.includes(topic));
  if (transfer) {
    // The transfer leaves a message and shares the order id with every later agent (the swarm's shared context).
    const orderId = orderFor(request);
    const input = {
      message: `The customer asks about ${topic}: "${lastCustomerLine(request.messages)}"`,
      ...(orderId ? { context: { orderId } } : {}),
    };
    return { text: `Let me pass you to our ${topic} team.`, toolUses: [{ name: transfer, input }] };
  }
  if (offered.includes(topic)) {
    // The one-agent desk asks its specialist in its own words: with the order memory recalled, when the customer named none.
    const line = lastCustomerLine(request.messages);
    const remembered = orderIdIn(request.messages) ? undefined : rememberedOrderId(request);
    return { toolUses: [{ name: topic, input: { input: remembered ? `${line} (order ${remembered})` : line } }] };
  }
  const routing = offered.length === 0; // a graph's triage routes by its text
  if (topic === 'other')
    return `${routing ? 'ROUTE: other. ' : ''}I can help with charges, invoices and refunds: what happened, and which order is it?`;
  return `ROUTE: ${topic}`;
}

function billing(request: ModelRequest): ScriptedTurn {
  const [outcome] = lastToolOutcomes(request.messages);
  if (outcome && !outcome.ok) return `I could not finish that: ${outcome.text.replace(/^Error: /, '')}`;
  if (outcome?.name === 'lookup_order') {
    const invoice = field(outcome.value, 'invoice');
    const charges = Number(field(invoice, 'charges'));
    if (charges > 1)
      return { toolUses: [{ name: 'reverse_duplicate_charge', input: { invoiceId: String(field(invoice, 'id')) } }] };
    return `Invoice ${String(field(invoice, 'id'))} shows one charge of ${String(field(outcome.value, 'amountEur'))} EUR, so there is no duplicate to reverse.`;
  }
  if (outcome?.name === 'reverse_duplicate_charge') {
    return `I reversed the duplicate charge on invoice ${String(field(outcome.value, 'id'))}; you are now charged ${String(field(outcome.value, 'amountEur'))} EUR once.`;
  }
  const orderId = orderFor(request);
  if (!orderId) return 'Which order number is it about?';
  return { toolUses: [{ name: 'lookup_order', input: { orderId } }] };
}

function refund(request: ModelRequest): ScriptedTurn {
  const [outcome] = lastToolOutcomes(request.messages);
  const denied = outcome && !outcome.ok ? denialNote(outcome.text) : undefined;
  // Told as a customer reads it (as a real model would put it): not the tool's words to the model.
  if (denied !== undefined)
    return `The refund was not made: our team did not approve it${denied ? ` (${denied})` : ''}.`;
  if (outcome && !outcome.ok) return `The refund was not made: ${outcome.text.replace(/^Error: /, '')}`;
  if (outcome?.name === 'lookup_order') {
    const amountEur = amountIn(lastCustomerLine(request.messages)) ?? Number(field(outcome.value, 'amountEur'));
    const orderId = String(field(outcome.value, 'id'));
    return {
      toolUses: [
        {
          name: 'issue_refund',
          input: { orderId, amountEur, reason: lastCustomerLine(request.messages).slice(0, 200) },
        },
      ],
    };
  }
  if (outcome?.name === 'issue_refund') {
    return `I refunded ${String(field(outcome.value, 'amountEur'))} EUR for order ${String(field(outcome.value, 'orderId'))}; it reaches your card in 3 to 5 days.`;
  }
  const orderId = orderFor(request);
  if (!orderId) return 'Which order should I refund?';
  return { toolUses: [{ name: 'lookup_order', input: { orderId } }] };
}

function summary(request: ModelRequest): ScriptedTurn {
  // This run's input is the last user message (the graph passes the specialists' answers in it).
  const last = [...request.messages].reverse().find((m) => m.role === 'user');
  const notes = last ? textOf(last) : '';
  const specialist =
    /(I reversed[^\n]*|I refunded[^\n]*|Invoice [^\n]*|The refund was not made[^\n]*|I could not[^\n]*|Which order[^\n]*)/.exec(
      notes,
    )?.[1];
  if (!specialist)
    return 'I could not work out what you need: is it a charge, an invoice or a refund, and which order?';
  const solved = /^I (reversed|refunded)/.test(specialist);
  return `${specialist}${solved ? ' Case closed.' : ''}`;
}

function notes(request: ModelRequest): ScriptedTurn {
  const line = lastCustomerLine(request.messages);
  return `Case note: ${topicOf(line)} request about order ${orderFor(request) ?? 'unknown'}.`;
}

/** The injection judge: BLOCK for words that try to override the desk's instructions. */
function judge(request: ModelRequest): ScriptedTurn {
  const content = request.messages.map(textOf).join('\n');
  return /ignore (all|any|previous|your)\b|system prompt|disregard (the|your)|you are now\b/i.test(content)
    ? "BLOCK: an attempt to override the desk's instructions"
    : 'PASS';
}

const POLICIES: Record<DeskRole, (request: ModelRequest, route: DeskRouting) => ScriptedTurn> = {
  triage,
  billing,
  refund,
  notes,
  summary,
  concierge: triage,
  judge,
};

/** Options of a scripted desk model. */
export interface ScriptedDeskOptions {
  /** The triage's (and the one-agent desk's) routing; default: the topic the customer's words name. */
  route?: DeskRouting;
}

/** A scripted model playing `role`. */
export function scriptedDeskModel(role: DeskRole, options: ScriptedDeskOptions = {}): ScriptedModel {
  const route = options.route ?? ((topic) => topic);
  return new ScriptedModel([(request) => POLICIES[role](request, route)], {
    loop: true,
    record: false,
    chunkSize: 16,
    modelId: `scripted-${role}`,
  });
}
