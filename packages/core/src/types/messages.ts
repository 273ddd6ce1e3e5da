import type { JsonValue } from './json.js';

/**
 * Provider-neutral conversation messages, shaped like Bedrock Converse. A content block is an object
 * with exactly one key naming its kind. Bytes are `Uint8Array` in memory and base64 when persisted.
 */

/** Who wrote a message. */
export type Role = 'user' | 'assistant';

/** Plain text. */
export interface TextBlock {
  text: string;
}

/** A model's request to run a tool. */
export interface ToolUse {
  toolUseId: string;
  name: string;
  input: JsonValue;
}

/** A content block holding a tool use. */
export interface ToolUseBlock {
  toolUse: ToolUse;
}

/** Image formats that models accept. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** An image given as bytes. */
export interface ImageBlock {
  image: { format: ImageFormat; source: { bytes: Uint8Array } };
}

/** Document formats that models accept. */
export type DocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';

/** A document given as bytes. */
export interface DocumentBlock {
  document: { format: DocumentFormat; name: string; source: { bytes: Uint8Array } };
}

/** What a tool result may contain. */
export type ToolResultContent = TextBlock | { json: JsonValue } | ImageBlock | DocumentBlock;

/** The outcome of a tool use, sent back to the model. */
export interface ToolResult {
  toolUseId: string;
  status: 'success' | 'error';
  content: ToolResultContent[];
}

/** A content block holding a tool result. */
export interface ToolResultBlock {
  toolResult: ToolResult;
}

/** A model's reasoning ("thinking"), with the signature that lets it be sent back. */
export interface ReasoningBlock {
  reasoningContent: {
    reasoningText?: { text: string; signature?: string };
    redactedContent?: Uint8Array;
  };
}

/** Marks the end of a prefix that the provider may cache. */
export interface CachePointBlock {
  cachePoint: { type: 'default' };
}

/** One block of a message. */
export type ContentBlock =
  | TextBlock
  | ToolUseBlock
  | ToolResultBlock
  | ImageBlock
  | DocumentBlock
  | ReasoningBlock
  | CachePointBlock;

/** One turn of a conversation. */
export interface Message {
  role: Role;
  content: ContentBlock[];
}

/** Text of all text blocks of a message, joined. */
export function messageText(message: Message | undefined): string {
  if (!message) return '';
  let out = '';
  for (const block of message.content) if ('text' in block) out += block.text;
  return out;
}

/** The tool uses of a message, in order. */
export function toolUsesOf(message: Message): ToolUse[] {
  const uses: ToolUse[] = [];
  for (const block of message.content) if ('toolUse' in block) uses.push(block.toolUse);
  return uses;
}

/** The tool results of a message, in order. */
export function toolResultsOf(message: Message): ToolResult[] {
  const results: ToolResult[] = [];
  for (const block of message.content) if ('toolResult' in block) results.push(block.toolResult);
  return results;
}

/** An error tool result carrying one line of text for the model to read. */
export function errorToolResult(toolUseId: string, text: string): ToolResult {
  return { toolUseId, status: 'error', content: [{ text }] };
}
