import type { NodeTransition } from '@skein/core';

/**
 * What a handoff gave its receiver, in words, from the transition's `details` (written by
 * `@skein/swarm`): the history before and after the handoff's input filter, the shared-context keys,
 * and what else the handing-off turn did. Empty when the transition has no such details (older
 * sessions, Strands Agents).
 */
export function handoffReceived(t: NodeTransition): string {
  const d = t.details;
  if (!d || typeof d['historyBefore'] !== 'number' || typeof d['historyAfter'] !== 'number') return '';
  const parts = [`received ${d['historyAfter']} of ${d['historyBefore']} messages`];
  const shared = d['sharedContextKeys'];
  if (shared && typeof shared === 'object' && !Array.isArray(shared)) {
    const keys = Object.entries(shared).flatMap(([node, ks]) =>
      Array.isArray(ks) ? ks.map((k) => `${node}.${String(k)}`) : [],
    );
    if (keys.length > 0) parts.push(`shared ${keys.join(', ')}`);
  }
  for (const [field, label] of [
    ['alsoRan', 'also ran'],
    ['refused', 'not performed'],
  ] as const) {
    const names = d[field];
    if (Array.isArray(names) && names.length > 0) parts.push(`${label} ${names.map(String).join(', ')}`);
  }
  return `(${parts.join('; ')})`;
}
