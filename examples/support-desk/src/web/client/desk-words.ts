/**
 * The words the desk's pages use for what its agents do: a customer reads them, so no tool names,
 * no "the user", no routing codes. Pure, shared by the live page, the stored conversation and the
 * supervisor's page (and the desk server's details of a stored case), so all say the same thing.
 */

function field(input: unknown, name: string): string {
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '?';
}

/** What a tool call asks for, as a noun phrase: `a refund of 60 EUR for order 108`. */
export function callSubject(tool: string, input: unknown): string {
  if (tool === 'issue_refund')
    return `a refund of ${field(input, 'amountEur')} EUR for order ${field(input, 'orderId')}`;
  if (tool === 'lookup_order') return `order ${field(input, 'orderId')}`;
  if (tool === 'reverse_duplicate_charge') return `the duplicate charge on invoice ${field(input, 'invoiceId')}`;
  if (tool === 'billing' || tool === 'refund') return `the ${tool} team`;
  if (tool.startsWith('transfer_to_')) return `the ${tool.slice('transfer_to_'.length)} team`;
  return 'a request';
}

/** A call at work, for the progress line: `looking up order 42`. */
export function callDoing(tool: string, input: unknown): string {
  if (tool === 'issue_refund') return `refunding ${field(input, 'amountEur')} EUR for order ${field(input, 'orderId')}`;
  if (tool === 'lookup_order') return `looking up order ${field(input, 'orderId')}`;
  if (tool === 'reverse_duplicate_charge')
    return `reversing the duplicate charge on invoice ${field(input, 'invoiceId')}`;
  if (tool === 'billing' || tool === 'refund') return `asking the ${tool} team`;
  if (tool.startsWith('transfer_to_')) return `passing you to the ${tool.slice('transfer_to_'.length)} team`;
  return 'working on it';
}

/** What an agent used as a tool is doing, for the progress line: `refund agent: looking up order 42`. */
export function nestedDoing(path: readonly string[], tool: string, input: unknown): string {
  return `${path.at(-1) ?? 'an'} agent: ${callDoing(tool, input)}`;
}

/** Who asked a person, for the supervisor: `the refund agent (desk → refund)` when it works for another. */
export function askedBy(source: string): string {
  if (!source) return 'the desk';
  const path = source.split('/');
  return `the ${path.at(-1)} agent${path.length > 1 ? ` (${path.join(' → ')})` : ''}`;
}

/** A call that finished, for the details: `looked up order 42`. */
export function callDone(tool: string, input: unknown): string {
  if (tool === 'issue_refund') return `refunded ${field(input, 'amountEur')} EUR for order ${field(input, 'orderId')}`;
  if (tool === 'lookup_order') return `looked up order ${field(input, 'orderId')}`;
  if (tool === 'reverse_duplicate_charge')
    return `reversed the duplicate charge on invoice ${field(input, 'invoiceId')}`;
  if (tool === 'billing' || tool === 'refund') return `asked the ${tool} team`;
  if (tool.startsWith('transfer_to_')) return `passed the case to the ${tool.slice('transfer_to_'.length)} team`;
  return 'did a step';
}

/** What a specialist consulted as a tool (the one-agent desk) answered: `the refund team answered: ...`. */
export function callAnswer(tool: string, output: string): string | undefined {
  return (tool === 'billing' || tool === 'refund') && output.trim()
    ? `the ${tool} team answered: ${output.trim()}`
    : undefined;
}

/** The note a person gave with a denial, from the text the agent was told (`The user denied <tool>: <note> It was not run...`). */
export function denialNote(text: string): string | undefined {
  const match = /denied [\w-]+(?:: ([^]*?))?\.? It was not run/.exec(text);
  return match ? (match[1]?.trim() ?? '') : undefined;
}

/** A person's decision on a call, as the customer reads it: `Approved by our team: <note>` or `Not approved: <note>`. */
export function decisionText(approved: boolean, note: string | undefined, subject: string): string {
  const said = note?.trim() ? note.trim() : `${subject}.`;
  return approved ? `Approved by our team: ${said}` : `Not approved: ${said}`;
}

/** A call that failed, for the details: `could not refund 500 EUR for order 108: <why>`. */
export function callFailed(tool: string, input: unknown, why: string): string {
  const note = denialNote(why);
  if (note !== undefined) return `not approved: ${callSubject(tool, input)}${note ? ` (${note})` : ''}`;
  return `could not finish ${callSubject(tool, input)}: ${why.replace(/^Error: /, '')}`;
}

/** What an agent's own text says, for the details: a routing code in words, other texts as they are. */
export function internalText(text: string): string {
  const route = /^ROUTE:\s*(\w+)\.?\s*([^]*)$/i.exec(text.trim());
  if (!route) return text.trim();
  const to = route[1]?.toLowerCase() ?? '?';
  return to === 'other' ? `answered itself: ${route[2] ?? ''}`.trim() : `decided this is for ${to}`;
}

/** The text of the agent that answers the customer: a routing code taken off (`ROUTE: other. I can help...`). */
export function answerText(text: string): string {
  return text.replace(/^ROUTE:\s*other\.?\s*/i, '').trim();
}

/** An orchestrator's step, for the details (of the node it concerns); `undefined` for steps not worth a line. */
export function stepWords(kind: string, to: string | null, reason: string): string | undefined {
  if (kind === 'edge') return `sent the case to ${to ?? '?'}`;
  if (kind === 'handoff') return `passed the case to ${to ?? '?'}${reason ? ` (note: ${reason})` : ''}`;
  if (kind === 'join') return 'started once the branches before it were done';
  if (kind === 'interrupt') return "paused for a person's answer";
  if (kind === 'resume')
    return to === null
      ? undefined
      : /^answered/.test(reason)
        ? 'went on after the answer'
        : 'went on after the desk restarted';
  if (kind === 'fail') return `failed: ${reason}`;
  return undefined;
}

/** Why an answer did not finish, in words a customer can act on. */
/** A blocked turn in words: `The desk blocked an action: order 108 is not an order of customer aiko [own-orders (refund)]`. */
export function blockedText(trip: { guardrail?: unknown; where?: unknown; reason?: unknown; path?: unknown }): string {
  const at = typeof trip.path === 'string' && trip.path ? ` (${trip.path})` : '';
  const what = trip.where === 'input' ? 'your message' : trip.where === 'tool' ? 'an action' : 'the answer';
  return `The desk blocked ${what}: ${String(
    trip.reason ?? 'a rule of the desk',
  )} [${String(trip.guardrail ?? 'guardrail')}${at}]`;
}

export function problemText(status: string): string {
  if (status === 'budgetExceeded')
    return 'The desk stopped: this conversation used up what it may spend. Start a new conversation.';
  if (status === 'cancelled' || status === 'stopped')
    return 'This answer was stopped before it was finished. Send your message again.';
  return 'Something went wrong on our side and this answer was not finished. Send your message again.';
}
