/** Pieces of skein content both OpenAI request formats need: tool-result text and image data URLs. */
import type { ContentBlock } from '@skein/core';

/** One item of a tool result's content. */
export type ToolResultContent = Extract<ContentBlock, { toolResult: unknown }>['toolResult']['content'][number];

/** A tool result's content as the text a model reads: text as is, JSON as JSON text, anything else a note. */
export function resultText(content: readonly ToolResultContent[]): string {
  return content
    .map((c) => ('text' in c ? c.text : 'json' in c ? JSON.stringify(c.json) : '[non-text content omitted]'))
    .join('\n');
}

/** An image block as a `data:` URL (base64), the form both APIs accept inline. */
export function imageDataUrl(image: Extract<ContentBlock, { image: unknown }>['image']): string {
  return `data:image/${image.format};base64,${Buffer.from(image.source.bytes).toString('base64')}`;
}
