import type { ContentBlock, HandoffInputData, Message } from '@skein/core';
import { getConversationHistoryWrappers } from '../history-wrappers.js';

/** Turns the transcript before a handoff into the messages that replace it. */
export type HandoffHistoryMapper = (transcript: readonly Message[]) => Message[] | Promise<Message[]>;

/** Options of {@link nestHandoffHistory}. */
export interface NestHandoffHistoryOptions {
  /** Replaces the default summary (one assistant message wrapped in the history markers). */
  historyMapper?: HandoffHistoryMapper;
}

const ENTRY = /^\d+\. /;

function indent(text: string): string {
  return text.replace(/\n/g, '\n   ');
}

function describeBlock(role: string, block: ContentBlock): string | undefined {
  if ('text' in block) return block.text.trim() === '' ? undefined : `${role}: ${indent(block.text)}`;
  if ('toolUse' in block) return `${role} called ${block.toolUse.name} ${JSON.stringify(block.toolUse.input)}`;
  if ('toolResult' in block) {
    const parts = block.toolResult.content.map((c) =>
      'text' in c
        ? c.text
        : 'json' in c
          ? JSON.stringify(c.json)
          : 'image' in c
            ? `[image: ${c.image.format}]`
            : `[document: ${c.document.name}]`,
    );
    return `tool result (${block.toolResult.status}): ${indent(parts.join(' '))}`;
  }
  if ('image' in block) return `${role}: [image: ${block.image.format}]`;
  if ('document' in block) return `${role}: [document: ${block.document.name}]`;
  return undefined;
}

/** The entries of an earlier summary, when `message` is one (so that summaries never nest). */
function earlierEntries(message: Message, start: string, end: string): string[] | undefined {
  if (message.role !== 'assistant' || message.content.length !== 1) return undefined;
  const block = message.content[0];
  if (!block || !('text' in block)) return undefined;
  const from = block.text.indexOf(start);
  const to = block.text.lastIndexOf(end);
  if (from < 0 || to < from) return undefined;
  const inner = block.text.slice(from + start.length, to).split('\n');
  const entries: string[] = [];
  for (const line of inner) {
    if (ENTRY.test(line)) entries.push(line.replace(ENTRY, ''));
    else if (line.startsWith('   ') && entries.length > 0) entries[entries.length - 1] += `\n${line}`;
  }
  return entries;
}

/** The transcript as numbered lines (`1. user: ...`), earlier summaries unfolded in place. */
export function transcriptEntries(transcript: readonly Message[]): string[] {
  const { start, end } = getConversationHistoryWrappers();
  const entries: string[] = [];
  for (const message of transcript) {
    const earlier = earlierEntries(message, start, end);
    if (earlier) {
      entries.push(...earlier);
      continue;
    }
    for (const block of message.content) {
      const line = describeBlock(message.role, block);
      if (line !== undefined) entries.push(line);
    }
  }
  return entries;
}

/**
 * The default history mapper: one assistant message holding the numbered transcript between the
 * history markers. An earlier summary in the transcript is unfolded, so repeated handoffs keep
 * appending turns to one list instead of nesting summaries.
 */
export function defaultHandoffHistoryMapper(transcript: readonly Message[]): Message[] {
  const { start, end } = getConversationHistoryWrappers();
  const lines = transcriptEntries(transcript).map((entry, i) => `${i + 1}. ${entry}`);
  return [{ role: 'assistant', content: [{ text: [start, ...lines, end].join('\n') }] }];
}

/**
 * An input filter that collapses the whole transcript (input history, earlier items and the
 * handing-off turn) into the messages of `historyMapper` (by default one assistant summary between
 * `<CONVERSATION HISTORY>` and `</CONVERSATION HISTORY>`), returned as the input history with no
 * other items. With the default mapper the result holds no tool blocks, so nothing can be orphaned.
 * @example
 * const billing = handoff(billingAgent, { inputFilter: nestHandoffHistory });
 */
export async function nestHandoffHistory(
  data: HandoffInputData,
  options: NestHandoffHistoryOptions = {},
): Promise<HandoffInputData> {
  const transcript = [...data.inputHistory, ...data.preHandoffItems, ...data.newItems];
  const mapper = options.historyMapper ?? defaultHandoffHistoryMapper;
  const history = await mapper(transcript);
  return { ...data, inputHistory: history, preHandoffItems: [], newItems: [] };
}
