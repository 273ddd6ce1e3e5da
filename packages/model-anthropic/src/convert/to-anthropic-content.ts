import type {
  ContentBlockParam,
  DocumentBlockParam,
  ImageBlockParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { ModelError, type ContentBlock, type DocumentBlock, type ImageBlock, type ToolResult } from '@skein/core';

/** Document formats sent as plain text; `pdf` is sent as base64; the rest cannot be sent. */
const TEXT_DOCUMENTS = new Set(['txt', 'md', 'csv', 'html']);

const utf8 = new TextDecoder();

/** Base64 of bytes, without copying when they already live in a Buffer. */
function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** An image block as Anthropic's base64 image source. */
function imageParam(block: ImageBlock): ImageBlockParam {
  const { format, source } = block.image;
  return { type: 'image', source: { type: 'base64', media_type: `image/${format}`, data: toBase64(source.bytes) } };
}

/** A document block: pdf as base64, txt/md/csv/html as a text source, titled with its name. */
function documentParam(block: DocumentBlock): DocumentBlockParam {
  const { format, name, source } = block.document;
  if (format === 'pdf') {
    return {
      type: 'document',
      title: name,
      source: { type: 'base64', media_type: 'application/pdf', data: toBase64(source.bytes) },
    };
  }
  if (TEXT_DOCUMENTS.has(format)) {
    return {
      type: 'document',
      title: name,
      source: { type: 'text', media_type: 'text/plain', data: utf8.decode(source.bytes) },
    };
  }
  throw new ModelError(
    `Anthropic cannot read the ${format} document "${name}": it accepts pdf, txt, md, csv and html. Convert it to pdf or text first.`,
  );
}

/** A tool result: text and JSON (as JSON text) become text blocks; images and documents pass through. */
function toolResultParam(result: ToolResult): ToolResultBlockParam {
  const content: (TextBlockParam | ImageBlockParam | DocumentBlockParam)[] = [];
  for (const item of result.content) {
    if ('text' in item) {
      if (item.text !== '') content.push({ type: 'text', text: item.text });
    } else if ('json' in item) {
      content.push({ type: 'text', text: JSON.stringify(item.json) });
    } else if ('image' in item) {
      content.push(imageParam(item));
    } else {
      content.push(documentParam(item));
    }
  }
  const param: ToolResultBlockParam = { type: 'tool_result', tool_use_id: result.toolUseId };
  if (content.length > 0) param.content = content;
  if (result.status === 'error') param.is_error = true;
  return param;
}

/**
 * One core content block as Anthropic blocks: none for empty text, reasoning without a signature
 * (it cannot be sent back) and cache points (handled by the caller), one or two otherwise.
 */
export function contentParams(block: ContentBlock): ContentBlockParam[] {
  if ('text' in block) return block.text === '' ? [] : [{ type: 'text', text: block.text }];
  if ('toolUse' in block) {
    const { toolUseId, name, input } = block.toolUse;
    return [{ type: 'tool_use', id: toolUseId, name, input }];
  }
  if ('toolResult' in block) return [toolResultParam(block.toolResult)];
  if ('image' in block) return [imageParam(block)];
  if ('document' in block) return [documentParam(block)];
  if ('reasoningContent' in block) {
    const { reasoningText, redactedContent } = block.reasoningContent;
    const out: ContentBlockParam[] = [];
    if (reasoningText?.signature !== undefined) {
      out.push({ type: 'thinking', thinking: reasoningText.text, signature: reasoningText.signature });
    }
    if (redactedContent !== undefined) out.push({ type: 'redacted_thinking', data: utf8.decode(redactedContent) });
    return out;
  }
  return [];
}
