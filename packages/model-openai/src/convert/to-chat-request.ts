/**
 * skein's request as a Chat Completions request: the system prompt first, then each message. A
 * user message's tool results become `role: 'tool'` messages (one per result, in order, before the
 * rest of that message); an assistant's tool uses become `tool_calls` with JSON `arguments`.
 * Reasoning blocks are not sent back (Chat Completions has no field for them).
 */
import type { ContentBlock, Message, ModelRequest, ToolChoice } from '@skein/core';
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { imageDataUrl, resultText } from './content.js';

function imagePart(block: Extract<ContentBlock, { image: unknown }>): ChatCompletionContentPart {
  return { type: 'image_url', image_url: { url: imageDataUrl(block.image) } };
}

function userMessages(message: Message): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  const parts: ChatCompletionContentPart[] = [];
  for (const block of message.content) {
    if ('toolResult' in block) {
      const { toolUseId, status, content } = block.toolResult;
      out.push({
        role: 'tool',
        tool_call_id: toolUseId,
        content: status === 'error' ? `Error: ${resultText(content)}` : resultText(content),
      });
    } else if ('text' in block) parts.push({ type: 'text', text: block.text });
    else if ('image' in block) parts.push(imagePart(block));
  }
  if (parts.length > 0) {
    const onlyText = parts.every((p) => p.type === 'text');
    out.push({
      role: 'user',
      content: onlyText ? parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n') : parts,
    });
  }
  return out;
}

function assistantMessage(message: Message): ChatCompletionMessageParam {
  const text = message.content.flatMap((b) => ('text' in b ? [b.text] : [])).join('');
  const calls = message.content.flatMap((b) =>
    'toolUse' in b
      ? [
          {
            id: b.toolUse.toolUseId,
            type: 'function' as const,
            function: { name: b.toolUse.name, arguments: JSON.stringify(b.toolUse.input) },
          },
        ]
      : [],
  );
  return {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

function toolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  if ('auto' in choice) return 'auto';
  if ('any' in choice) return 'required';
  return { type: 'function', function: { name: choice.tool.name } };
}

export function toChatRequest(
  request: ModelRequest,
  modelId: string,
  params: Record<string, unknown>,
): ChatCompletionCreateParamsStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.systemPrompt !== undefined && request.systemPrompt !== '')
    messages.push({ role: 'system', content: request.systemPrompt });
  for (const message of request.messages) {
    if (message.role === 'user') messages.push(...userMessages(message));
    else messages.push(assistantMessage(message));
  }
  return {
    ...params,
    model: modelId,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(request.toolSpecs && request.toolSpecs.length > 0
      ? {
          tools: request.toolSpecs.map((t) => ({
            type: 'function' as const,
            function: {
              name: t.name,
              description: t.description,
              parameters: t.inputSchema.json as Record<string, unknown>,
            },
          })),
        }
      : {}),
    ...(request.toolChoice ? { tool_choice: toolChoice(request.toolChoice) } : {}),
  };
}
