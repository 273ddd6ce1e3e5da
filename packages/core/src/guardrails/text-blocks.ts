import type { ContentBlock } from '../types/messages.js';

/**
 * `content` with its text replaced by `text`: the first text block takes it and the other text blocks
 * go (images, documents, tool uses stay in place); content without text gets it as its first block.
 */
export function withText(content: readonly ContentBlock[], text: string): ContentBlock[] {
  let placed = false;
  const out: ContentBlock[] = [];
  for (const block of content) {
    if (!('text' in block)) out.push(block);
    else if (!placed) {
      placed = true;
      out.push({ text });
    }
  }
  if (!placed) out.unshift({ text });
  return out;
}
