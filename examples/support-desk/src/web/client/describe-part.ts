/**
 * What each part of a message says on the page, as one line: who speaks, their text, tool calls and
 * their results, handoffs, nodes that failed, and what waits for a person. Pure, so the page and its
 * tests read the same thing.
 */
import type { DeskMessage, DeskPart } from './desk-message.js';

/** One line of a message on the page; `kind` is its class (`text`, `speaker`, `tool`, `waiting`, ...). */
export interface PartLine {
  kind: string;
  text: string;
  /** `running`, `done`, `failed`, `waiting`... for styling. */
  status?: string;
}

type ToolPart = Extract<DeskPart, { type: 'dynamic-tool' }>;

const who = (path: readonly string[]): string => (path.length === 0 ? 'desk' : path.join(' / '));

function field(input: unknown, name: string): string {
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '?';
}

/** A tool call in words: `a refund of 60 EUR for order 108`. */
export function describeCall(tool: string, input: unknown): string {
  if (tool === 'issue_refund')
    return `a refund of ${field(input, 'amountEur')} EUR for order ${field(input, 'orderId')}`;
  if (tool === 'lookup_order') return `looking up order ${field(input, 'orderId')}`;
  if (tool === 'reverse_duplicate_charge') return `reversing the duplicate charge on ${field(input, 'invoiceId')}`;
  if (tool === 'billing' || tool === 'refund') return `asking ${tool}`;
  if (tool.startsWith('transfer_to_')) return `handing over to ${tool.slice('transfer_to_'.length)}`;
  return `${tool} ${JSON.stringify(input ?? {})}`;
}

function toolLine(part: ToolPart, answered: ReadonlySet<string>): PartLine | undefined {
  // A swarm's handoff is its transition line (`triage handed over to refund`).
  if (part.toolName.startsWith('transfer_to_')) return undefined;
  const call = describeCall(part.toolName, part.input);
  // The server titles a node's call with the node (nodes side by side call tools between each other's text).
  const by = part.title ? ` (${part.title})` : '';
  switch (part.state) {
    case 'approval-requested':
    case 'approval-responded':
      return answered.has(part.toolCallId) || part.state === 'approval-responded'
        ? { kind: 'tool', text: `A person answered${by}: ${call}`, status: 'done' }
        : { kind: 'waiting', text: `Waiting for a person to approve${by}: ${call}`, status: 'waiting' };
    case 'output-available':
      return { kind: 'tool', text: `Done${by}: ${call}`, status: 'done' };
    case 'output-error':
      return { kind: 'tool', text: `Could not finish${by}: ${call}: ${part.errorText}`, status: 'failed' };
    case 'output-denied':
      return { kind: 'tool', text: `Denied${by}: ${call}`, status: 'failed' };
    default:
      return { kind: 'tool', text: `Working${by}: ${call}`, status: 'running' };
  }
}

function transitionLine(data: { from: string | null; to: string | null; kind: string }): PartLine | undefined {
  if (data.kind === 'handoff')
    return { kind: 'handoff', text: `${data.from ?? 'desk'} handed over to ${data.to ?? '?'}` };
  if (data.kind === 'edge')
    return { kind: 'handoff', text: `${data.from ?? 'desk'} sent the case to ${data.to ?? '?'}` };
  return undefined;
}

/** A blocked turn in words: `Blocked by own-orders (refund): order 108 is not an order of customer aiko`. */
function blockedText(trip: { guardrail: string; where: string; reason: string; path: string }): string {
  const at = trip.path ? ` (${trip.path})` : '';
  const what = trip.where === 'input' ? 'your message' : trip.where === 'tool' ? 'an action' : 'the answer';
  return `The desk blocked ${what}: ${trip.reason} [${trip.guardrail}${at}]`;
}

/**
 * The parts of a message the page shows: a text a guardrail retracted (`data-skein-retract`, in a
 * graph or swarm) is dropped, so what it took back is not left on the page.
 */
export function shownParts(parts: readonly DeskPart[]): DeskPart[] {
  const shown: (DeskPart | undefined)[] = [];
  const lastText = new Map<string, number>();
  let speaker = '';
  for (const part of parts) {
    if (part.type === 'data-skein-speaker') speaker = part.data.path.join('/');
    if (part.type === 'data-skein-retract') {
      const at = lastText.get(part.data.path.join('/'));
      if (at !== undefined) shown[at] = undefined;
      continue;
    }
    if (part.type === 'text') lastText.set(speaker, shown.length);
    shown.push(part);
  }
  return shown.filter((p): p is DeskPart => p !== undefined);
}

/** The line of one part, or `undefined` for parts the page does not show. */
export function describePart(part: DeskPart, answered: ReadonlySet<string>): PartLine | undefined {
  switch (part.type) {
    case 'text':
      return { kind: 'text', text: part.text };
    case 'dynamic-tool':
      return toolLine(part, answered);
    case 'data-skein-speaker':
      return { kind: 'speaker', text: who(part.data.path) };
    case 'data-skein-node': {
      // Who is working shows in the status line; a node's line says only what went wrong.
      const { path, status, error } = part.data;
      if (status === 'running' || status === 'completed' || status === 'interrupted') return undefined;
      return { kind: 'node', text: `${who(path)} ${status}${error ? `: ${error}` : ''}`, status: 'failed' };
    }
    case 'data-skein-turn':
      // A turn the server resumed after it stopped (a crash, a restart): what ran before is stored, not shown again.
      return part.data.resumed
        ? { kind: 'notice', text: 'The desk restarted and went on from where it was.', status: 'done' }
        : undefined;
    case 'data-skein-transition':
      return transitionLine(part.data);
    case 'data-skein-interrupt':
      return { kind: 'waiting', text: `Waiting for a person (${part.data.name})`, status: 'waiting' };
    case 'data-desk-waiting': {
      // From the stored conversation; a turn that answered it came after (the page re-joined it).
      const call = describeCall(part.data.tool ?? '?', part.data.input);
      return answered.size > 0
        ? { kind: 'tool', text: `A person answered: ${call}`, status: 'done' }
        : { kind: 'waiting', text: `Waiting for a person to approve: ${call}`, status: 'waiting' };
    }
    case 'data-skein-guardrail':
      return { kind: 'blocked', text: blockedText(part.data), status: 'failed' };
    case 'data-skein-result':
      // A blocked turn's line is its guardrail's.
      return part.data.status === 'completed' || part.data.status === 'interrupted' || part.data.status === 'blocked'
        ? undefined
        : {
            kind: 'result',
            text: `This answer ${part.data.status}${part.data.failureReason ? `: ${part.data.failureReason}` : ''}`,
            status: 'failed',
          };
    default:
      return undefined;
  }
}

/**
 * The tool calls of message `index` that a person's answer let go on: a turn that answers an approval
 * is the next assistant message (no customer message between), and it runs the approved call again
 * under the same id. Tool call ids repeat across turns, so only those messages count.
 */
export function answeredAfter(messages: readonly DeskMessage[], index: number): Set<string> {
  const answered = new Set<string>();
  for (const message of messages.slice(index + 1)) {
    if (message.role === 'user') break;
    for (const part of message.parts)
      if (part.type === 'dynamic-tool' && !part.state.startsWith('approval-')) answered.add(part.toolCallId);
  }
  return answered;
}

/** Who is working right now: the nodes of the last answer that started and have not ended. */
export function working(messages: readonly DeskMessage[]): string[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return [];
  return last.parts.flatMap((part) =>
    part.type === 'data-skein-node' && part.data.status === 'running' ? [who(part.data.path)] : [],
  );
}

/** True when the conversation's last answer waits for a person. */
export function waitsForPerson(messages: readonly DeskMessage[]): boolean {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return false;
  return last.parts.some((part) => describePart(part, new Set())?.kind === 'waiting');
}
