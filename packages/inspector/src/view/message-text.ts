import type { ContentBlock, JsonValue, Message } from '@skein/core';

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const json = (v: unknown): string => JSON.stringify(v) ?? 'undefined';

/** One content block as one line (tool calls and results folded) or in full. */
export function blockText(block: ContentBlock, full = false): string {
  const b = block as unknown as Record<string, unknown>;
  if (typeof b['text'] === 'string') return full ? b['text'] : clip(b['text'].replace(/\s+/g, ' '), 160);
  const use = b['toolUse'] as { name?: string; input?: JsonValue; toolUseId?: string } | undefined;
  if (use) return `→ ${use.name ?? '?'}(${full ? JSON.stringify(use.input, null, 2) : clip(json(use.input), 120)})`;
  const result = b['toolResult'] as { status?: string; content?: ContentBlock[] } | undefined;
  if (result) {
    const inner = (result.content ?? []).map((c) => blockText(c, full)).join(' ');
    return `← ${result.status ?? 'success'}: ${full ? inner : clip(inner, 120)}`;
  }
  if (b['json'] !== undefined) return full ? JSON.stringify(b['json'], null, 2) : clip(json(b['json']), 120);
  if (b['reasoningContent']) return '[reasoning]';
  if (b['image']) return '[image]';
  if (b['document']) return '[document]';
  if (b['cachePoint']) return '[cache point]';
  if (b['interruptResponse']) return `[interrupt response ${clip(json(b['interruptResponse']), 100)}]`;
  return `[${Object.keys(b).join(', ') || 'empty block'}]`;
}

/** The text of a message's text blocks. */
export function messageText(message: Message): string {
  return message.content
    .map((b) => (typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : ''))
    .filter((t) => t !== '')
    .join(' ');
}

/** A list of stored messages (a swarm's task) as text. */
export function messagesText(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value
    .filter(
      (m): m is Message => typeof m === 'object' && m !== null && Array.isArray((m as { content?: unknown }).content),
    )
    .map(messageText)
    .join(' / ');
}
