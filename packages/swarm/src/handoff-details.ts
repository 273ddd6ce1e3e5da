import { toolUsesOf, type JsonObject, type Message } from '@skein/core';

/** What a handoff gave the receiver, as the transition's `details` and the `handoff` event carry it (counts and keys, not contents). */
export type HandoffDetails = {
  /** The message the handing-off member left, if any. */
  message?: string;
  /** The shared-context keys the receiver sees, by the member that shared them. */
  sharedContextKeys: Record<string, string[]>;
  /** Messages of the conversation passed on before the input filter (input history, earlier items, the turn's new items). */
  historyBefore: number;
  /** The same count after the filter (the transfer note not included). */
  historyAfter: number;
  /** Other tools the handing-off turn ran before the transfer (their results are in the turn). */
  alsoRan?: string[];
  /** Other transfers asked in the same turn and not performed (only the first valid transfer of a turn is). */
  refused?: string[];
};

/** What the turn that handed off also did: the other tools it ran and the other transfers it asked for. */
export function turnSideFacts(
  newItems: readonly Message[],
  handoffToolUseId: string,
  transferTools: ReadonlySet<string>,
): { alsoRan: string[]; refused: string[] } {
  const asking = [...newItems].reverse().find((m) => toolUsesOf(m).some((u) => u.toolUseId === handoffToolUseId));
  const uses = asking ? toolUsesOf(asking).filter((u) => u.toolUseId !== handoffToolUseId) : [];
  return {
    alsoRan: uses.filter((u) => !transferTools.has(u.name)).map((u) => u.name),
    refused: uses.filter((u) => transferTools.has(u.name)).map((u) => u.name),
  };
}

/** The details of a handoff transition. */
export function handoffDetails(fields: {
  message: string | undefined;
  sharedContext: Record<string, JsonObject>;
  historyBefore: number;
  historyAfter: number;
  alsoRan: readonly string[];
  refused: readonly string[];
}): HandoffDetails {
  const { message, historyBefore, historyAfter } = fields;
  const sharedContextKeys = Object.fromEntries(
    Object.entries(fields.sharedContext).map(([node, ctx]) => [node, Object.keys(ctx)]),
  );
  // Literals and assignments rather than conditional spreads (same keys, same order): runs on every handoff.
  const details: HandoffDetails =
    message !== undefined
      ? { message, sharedContextKeys, historyBefore, historyAfter }
      : { sharedContextKeys, historyBefore, historyAfter };
  if (fields.alsoRan.length > 0) details.alsoRan = [...fields.alsoRan];
  if (fields.refused.length > 0) details.refused = [...fields.refused];
  return details;
}

/** The transition's reason in words: the message (or the call), and what else the turn did. */
export function handoffReason(base: string, alsoRan: readonly string[], refused: readonly string[]): string {
  const parts = [base];
  if (alsoRan.length > 0) parts.push(`after running ${alsoRan.join(', ')}`);
  if (refused.length > 0)
    parts.push(`not performed: ${refused.join(', ')} (one transfer per turn: the first valid one)`);
  return parts.join('; ');
}

/** The handoff details in a transition's `details`, when it has them. */
export function detailsOf(details: JsonObject | undefined): HandoffDetails | undefined {
  if (!details || typeof details['historyBefore'] !== 'number' || typeof details['historyAfter'] !== 'number')
    return undefined;
  return details as unknown as HandoffDetails;
}
