/**
 * Message content in the shape of the GenAI conventions' `gen_ai.input.messages` /
 * `gen_ai.output.messages` (role and parts, as JSON text). Only used when content capture is on.
 */
import type { ContentBlock, Message, ToolResult } from '@skein/core';

type Part =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown }
  | { type: 'blob' | 'uri'; modality: string };

function part(block: ContentBlock): Part | undefined {
  if ('text' in block) return { type: 'text', content: block.text };
  if ('toolUse' in block)
    return { type: 'tool_call', id: block.toolUse.toolUseId, name: block.toolUse.name, arguments: block.toolUse.input };
  if ('toolResult' in block)
    return { type: 'tool_call_response', id: block.toolResult.toolUseId, response: resultContent(block.toolResult) };
  if ('reasoningContent' in block)
    return { type: 'reasoning', content: block.reasoningContent.reasoningText?.text ?? '' };
  if ('image' in block) return { type: 'blob', modality: 'image' };
  if ('document' in block) return { type: 'blob', modality: 'document' };
  return undefined;
}

/** A tool result's content as JSON-friendly values (bytes left out). */
export function resultContent(result: ToolResult): unknown[] {
  return result.content.map((c) => ('text' in c ? c.text : 'json' in c ? c.json : { type: 'blob' }));
}

/** Messages as the conventions' JSON text. */
export function messagesJson(messages: readonly Message[], finishReason?: string): string {
  return JSON.stringify(
    messages.map((m) => ({
      role: m.role,
      parts: m.content.map(part).filter((p): p is Part => p !== undefined),
      ...(finishReason === undefined ? {} : { finish_reason: finishReason }),
    })),
  );
}

/** A system prompt as the conventions' `gen_ai.system_instructions` JSON text. */
export function instructionsJson(systemPrompt: string): string {
  return JSON.stringify([{ type: 'text', content: systemPrompt }]);
}
