/**
 * A2A parts and skein content blocks, both ways, as pure functions: text stays text, a data part is
 * JSON, bytes with an image or document media type become image or document blocks, a URL is named
 * in text (skein blocks hold bytes, not links).
 */
import type { Part } from '@a2a-js/sdk';
import type { ContentBlock, DocumentFormat, ImageFormat, JsonObject, JsonValue, Message } from '@skein/core';

const IMAGE: Record<string, ImageFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
const DOCUMENT: Record<string, DocumentFormat> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'text/html': 'html',
  'text/markdown': 'md',
  'text/plain': 'txt',
};

/** A text part. */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

/** A data part holding a JSON object. */
export function dataPart(data: JsonObject): Part {
  return { content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

/** The text of the text parts, joined by newlines (data parts excluded). */
export function partsText(parts: readonly Part[]): string {
  const out: string[] = [];
  for (const p of parts) if (p.content?.$case === 'text') out.push(p.content.value);
  return out.join('\n');
}

/** The JSON objects of the data parts. */
export function partsData(parts: readonly Part[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const p of parts) {
    const v: unknown = p.content?.$case === 'data' ? p.content.value : undefined;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) out.push(v as JsonObject);
  }
  return out;
}

/** One A2A part as a skein content block: what a served agent reads. */
function partToBlock(part: Part): ContentBlock | undefined {
  const c = part.content;
  if (!c) return undefined;
  switch (c.$case) {
    case 'text':
      return { text: c.value };
    case 'data':
      return { text: JSON.stringify(c.value as JsonValue) };
    case 'url':
      return { text: `[${part.filename || 'file'}${part.mediaType ? ` (${part.mediaType})` : ''}: ${c.value}]` };
    case 'raw': {
      const bytes = new Uint8Array(c.value);
      const image = IMAGE[part.mediaType];
      if (image) return { image: { format: image, source: { bytes } } };
      const doc = DOCUMENT[part.mediaType];
      if (doc) return { document: { format: doc, name: part.filename || 'document', source: { bytes } } };
      return {
        text: `[${part.filename || 'file'} (${part.mediaType || 'bytes'}, ${bytes.length} bytes) not readable here]`,
      };
    }
  }
}

/** An A2A message's parts as the content of one skein user message. */
export function partsToBlocks(parts: readonly Part[]): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const p of parts) {
    const block = partToBlock(p);
    if (block) out.push(block);
  }
  return out;
}

/**
 * Messages rendered as one text for a remote agent: a single user message is its text; a longer
 * history is a transcript (`user: ...`, `assistant: ...`), tool calls and results left out.
 */
export function transcript(messages: readonly Message[]): string {
  const texts = messages
    .map((m) => ({ role: m.role, text: blocksText(m.content) }))
    .filter((m) => m.text.trim() !== '');
  const only = texts[0];
  if (texts.length === 1 && only?.role === 'user') return only.text;
  return texts.map((m) => `${m.role}: ${m.text}`).join('\n\n');
}

/** The text blocks of some content, joined by newlines. */
export function blocksText(content: readonly ContentBlock[]): string {
  const out: string[] = [];
  for (const b of content) if ('text' in b) out.push(b.text);
  return out.join('\n');
}
