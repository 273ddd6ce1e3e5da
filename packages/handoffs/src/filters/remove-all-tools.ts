import type { ContentBlock, HandoffInputData, Message } from '@skein/core';

function isToolBlock(block: ContentBlock): boolean {
  return 'toolUse' in block || 'toolResult' in block;
}

function isSubstantive(block: ContentBlock): boolean {
  return 'text' in block || 'image' in block || 'document' in block;
}

/**
 * The messages without tool blocks: every toolUse and toolResult (handoff calls and their results
 * included) is dropped; a message that loses blocks and keeps no text, image or document is dropped
 * too. Messages without tool blocks are returned as they are.
 */
export function stripToolBlocks(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (!message.content.some(isToolBlock)) {
      out.push(message);
      continue;
    }
    const content = message.content.filter((block) => !isToolBlock(block));
    if (content.some(isSubstantive)) out.push({ role: message.role, content });
  }
  return out;
}

/**
 * An input filter that removes every tool call and tool result (handoff calls and results included)
 * from the history the next agent receives, keeping text and media. No toolUse or toolResult can be
 * left orphaned, because none is left at all.
 * @example
 * const faq = handoff(faqAgent, { inputFilter: removeAllTools });
 */
export function removeAllTools(data: HandoffInputData): HandoffInputData {
  return {
    ...data,
    inputHistory: stripToolBlocks(data.inputHistory),
    preHandoffItems: stripToolBlocks(data.preHandoffItems),
    newItems: stripToolBlocks(data.newItems),
  };
}
