import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  Tool,
  ToolChoice as AnthropicToolChoice,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Message, ModelRequest, ToolChoice, ToolSpec } from '@skein/core';
import type { ResolvedAnthropicOptions } from '../anthropic-options.js';
import { placeCacheBreakpoints } from './auto-cache.js';
import { contentParams } from './to-anthropic-content.js';

type CacheableBlock = Exclude<ContentBlockParam, { type: 'thinking' } | { type: 'redacted_thinking' }>;

function canCache(block: ContentBlockParam): block is CacheableBlock {
  return block.type !== 'thinking' && block.type !== 'redacted_thinking';
}

/** Anthropic wants a user turn's tool results before anything else in it; keeps the rest in order. */
function toolResultsFirst(content: ContentBlockParam[]): ContentBlockParam[] {
  const firstOther = content.findIndex((b) => b.type !== 'tool_result');
  if (firstOther === -1 || !content.slice(firstOther).some((b) => b.type === 'tool_result')) return content;
  return [...content.filter((b) => b.type === 'tool_result'), ...content.filter((b) => b.type !== 'tool_result')];
}

/**
 * Core messages as Anthropic messages: blocks converted, consecutive messages of one role merged
 * into one turn (Anthropic requires alternation), a cache point turned into `cache_control` on the
 * nearest preceding block that can carry it, and empty messages dropped.
 */
function toAnthropicMessages(messages: readonly Message[]): MessageParam[] {
  const out: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const emitted: ContentBlockParam[] = [];
  for (const message of messages) {
    const converted: ContentBlockParam[] = [];
    for (const block of message.content) {
      if ('cachePoint' in block) {
        const target = [...emitted, ...converted].findLast(canCache);
        if (target) target.cache_control = { type: 'ephemeral' };
        continue;
      }
      converted.push(...contentParams(block));
    }
    if (converted.length === 0) continue;
    emitted.push(...converted);
    const last = out.at(-1);
    if (last && last.role === message.role) last.content.push(...converted);
    else out.push({ role: message.role, content: converted });
  }
  for (const turn of out) if (turn.role === 'user') turn.content = toolResultsFirst(turn.content);
  return out;
}

/** Tool specs as Anthropic tools. */
function toAnthropicTools(specs: readonly ToolSpec[]): Tool[] {
  return specs.map((spec) => ({
    name: spec.name,
    description: spec.description,
    input_schema: spec.inputSchema.json as Tool.InputSchema,
  }));
}

/** `{ auto: {} }`, `{ any: {} }`, `{ tool: { name } }` as Anthropic's `{ type: ... }`. */
function toAnthropicToolChoice(choice: ToolChoice): AnthropicToolChoice {
  if ('tool' in choice) return { type: 'tool', name: choice.tool.name };
  return 'any' in choice ? { type: 'any' } : { type: 'auto' };
}

/** The full streaming request body for one model call. */
export function toAnthropicRequest(
  request: ModelRequest,
  options: ResolvedAnthropicOptions,
): MessageCreateParamsStreaming {
  const body: MessageCreateParamsStreaming = {
    ...options.params,
    model: options.modelId,
    max_tokens: options.maxTokens,
    messages: toAnthropicMessages(request.messages),
    stream: true,
  };
  if (request.systemPrompt) body.system = request.systemPrompt;
  if (request.toolSpecs && request.toolSpecs.length > 0) {
    body.tools = toAnthropicTools(request.toolSpecs);
    if (request.toolChoice) body.tool_choice = toAnthropicToolChoice(request.toolChoice);
  }
  if (options.cache === 'auto') placeCacheBreakpoints(body);
  return body;
}
