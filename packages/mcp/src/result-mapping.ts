import type { DocumentFormat, ImageFormat, JsonValue, ToolResult, ToolResultContent } from '@skein/core';
import type { CallToolResult, ContentBlock, EmbeddedResource } from '@modelcontextprotocol/client';

// MCP tool results -> skein tool results. The table, case by case:
//   text                                   -> { text }
//   image png|jpeg|gif|webp                -> { image: { format, source: { bytes } } }
//   image of another type, audio           -> { text } saying what was left out
//   resource with text                     -> { text } (the resource's text)
//   resource blob png|jpeg|gif|webp        -> { image }
//   resource blob pdf|csv|doc(x)|xls(x)|html|plain|markdown -> { document: { format, name, source } }
//   resource blob of another type          -> { text } saying what was left out
//   resource_link                          -> { text } naming the link
//   structuredContent                      -> { json } after the other blocks
//   isError                                -> status 'error'
//   nothing at all                         -> { json: null }, as core does for a tool returning undefined

const IMAGE: Record<string, ImageFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
const DOCUMENT: Record<string, DocumentFormat> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

function bytes(base64: string): Uint8Array {
  const buffer = Buffer.from(base64, 'base64');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** A document name providers accept (letters, digits, spaces, hyphens, parentheses, brackets), from a URI. */
export function documentName(uri: string): string {
  const last = uri.split(/[/\\]/).filter(Boolean).pop() ?? 'document';
  const base = last
    .replace(/\.[^.]*$/, '')
    .replace(/[^a-zA-Z0-9\s\-()[\]]/g, '-')
    .replace(/-+/g, '-')
    .trim();
  return base.slice(0, 200) || 'document';
}

function mime(type: string | undefined): string {
  return (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function omitted(what: string, type: string | undefined, size: number): ToolResultContent {
  return {
    text: `[${what}${type ? ` of type ${type}` : ''}, ${size} bytes, left out: skein tool results cannot carry it]`,
  };
}

function fromResource(block: EmbeddedResource): ToolResultContent {
  const r = block.resource;
  if ('text' in r && typeof r.text === 'string') return { text: r.text };
  const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
  const type = mime(r.mimeType);
  const image = IMAGE[type];
  if (image) return { image: { format: image, source: { bytes: bytes(blob) } } };
  const document = DOCUMENT[type];
  if (document) return { document: { format: document, name: documentName(r.uri), source: { bytes: bytes(blob) } } };
  return omitted(`resource ${r.uri}`, r.mimeType, bytes(blob).byteLength);
}

/** Maps one MCP content block to a skein tool result block. */
export function toResultContent(block: ContentBlock): ToolResultContent {
  switch (block.type) {
    case 'text':
      return { text: block.text };
    case 'image': {
      const format = IMAGE[mime(block.mimeType)];
      return format
        ? { image: { format, source: { bytes: bytes(block.data) } } }
        : omitted('image', block.mimeType, bytes(block.data).byteLength);
    }
    case 'audio':
      return omitted('audio', block.mimeType, bytes(block.data).byteLength);
    case 'resource':
      return fromResource(block);
    case 'resource_link':
      return {
        text: `[resource link: ${block.name} ${block.uri}${block.description ? ` (${block.description})` : ''}]`,
      };
    default:
      return {
        text: `[content of type ${String((block as { type?: unknown }).type)} left out: not known to this version of @skein/mcp]`,
      };
  }
}

function isJson(value: unknown): value is JsonValue {
  try {
    return value !== undefined && JSON.stringify(value) !== undefined;
  } catch {
    return false;
  }
}

/** Maps a whole MCP `tools/call` result to a skein tool result. */
export function toToolResult(toolUseId: string, result: CallToolResult): ToolResult {
  const content = (result.content ?? []).map(toResultContent);
  if (result.structuredContent !== undefined && isJson(result.structuredContent)) {
    content.push({ json: JSON.parse(JSON.stringify(result.structuredContent)) as JsonValue });
  }
  if (result.isError === true) {
    if (content.length === 0) content.push({ text: 'The tool reported an error without saying what went wrong.' });
    return { toolUseId, status: 'error', content };
  }
  if (content.length === 0) content.push({ json: null });
  return { toolUseId, status: 'success', content };
}
