/**
 * skein's request as a Responses API request (stateless): the system prompt as `instructions`, the
 * whole history as `input` items every time, `store: false` unless `params` says otherwise. A user
 * message's tool results become `function_call_output` items (in order, before the rest of that
 * message: text and images as `input_text` / `input_image` parts); an assistant message becomes, in
 * block order, `message` items with `output_text` parts and `function_call` items (`call_id` = the
 * toolUseId, JSON `arguments`). No item ids are sent: with `store: false` OpenAI keeps no items an
 * id could refer to. Reasoning blocks are not sent back (a summary without OpenAI's encrypted
 * reasoning item cannot be replayed).
 */
import type { Message, ModelRequest, ToolChoice } from '@skein/core';
import type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
  ResponseInputMessageContentList,
  ToolChoiceFunction,
  ToolChoiceOptions,
} from 'openai/resources/responses/responses';
import { imageDataUrl, resultText, type ToolResultContent } from './content.js';

/** An earlier assistant answer sent back: `output_text` parts, without the id a stored item would have. */
interface AssistantInputMessage {
  type: 'message';
  role: 'assistant';
  content: { type: 'output_text'; text: string; annotations: [] }[];
}

/** What skein puts in `input`. */
type ResponsesInputItem = ResponseInputItem | AssistantInputMessage;

function toolOutput(
  content: readonly ToolResultContent[],
  isError: boolean,
): string | ResponseFunctionCallOutputItemList {
  const prefix = isError ? 'Error: ' : '';
  if (!content.some((c) => 'image' in c)) return prefix + resultText(content);
  return content.flatMap(
    (c): ResponseFunctionCallOutputItemList =>
      'image' in c
        ? [{ type: 'input_image', image_url: imageDataUrl(c.image), detail: 'auto' }]
        : [{ type: 'input_text', text: prefix + resultText([c]) }],
  );
}

function userItems(message: Message): ResponsesInputItem[] {
  const out: ResponsesInputItem[] = [];
  const parts: ResponseInputMessageContentList = [];
  for (const block of message.content) {
    if ('toolResult' in block) {
      const { toolUseId, status, content } = block.toolResult;
      out.push({ type: 'function_call_output', call_id: toolUseId, output: toolOutput(content, status === 'error') });
    } else if ('text' in block) parts.push({ type: 'input_text', text: block.text });
    else if ('image' in block)
      parts.push({ type: 'input_image', image_url: imageDataUrl(block.image), detail: 'auto' });
  }
  if (parts.length > 0) out.push({ type: 'message', role: 'user', content: parts });
  return out;
}

function assistantItems(message: Message): ResponsesInputItem[] {
  const out: ResponsesInputItem[] = [];
  let text: AssistantInputMessage | undefined;
  for (const block of message.content) {
    if ('text' in block) {
      if (block.text === '') continue;
      if (!text) out.push((text = { type: 'message', role: 'assistant', content: [] }));
      text.content.push({ type: 'output_text', text: block.text, annotations: [] });
    } else if ('toolUse' in block) {
      const { toolUseId, name, input } = block.toolUse;
      out.push({ type: 'function_call', call_id: toolUseId, name, arguments: JSON.stringify(input) });
      text = undefined;
    }
  }
  return out;
}

function toolChoice(choice: ToolChoice): ToolChoiceOptions | ToolChoiceFunction {
  if ('auto' in choice) return 'auto';
  if ('any' in choice) return 'required';
  return { type: 'function', name: choice.tool.name };
}

function tools(request: ModelRequest): FunctionTool[] {
  return (request.toolSpecs ?? []).map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description,
    parameters: t.inputSchema.json as Record<string, unknown>,
    // zod's JSON Schema is not always strict-mode compatible (optional fields, open objects).
    strict: false,
  }));
}

/** The Responses API request for `request`; `params` first, so skein's fields win and `params.store` can turn storing on. */
export function toResponsesRequest(
  request: ModelRequest,
  modelId: string,
  params: Record<string, unknown>,
): ResponseCreateParamsStreaming {
  const input: ResponsesInputItem[] = request.messages.flatMap((m) =>
    m.role === 'user' ? userItems(m) : assistantItems(m),
  );
  const specs = tools(request);
  return {
    store: false,
    ...params,
    model: modelId,
    // The SDK's input type names stored output messages (with ids); an assistant message without one is what stateless callers send.
    input: input as ResponseInputItem[],
    stream: true,
    ...(request.systemPrompt !== undefined && request.systemPrompt !== ''
      ? { instructions: request.systemPrompt }
      : {}),
    ...(specs.length > 0 ? { tools: specs } : {}),
    ...(request.toolChoice ? { tool_choice: toolChoice(request.toolChoice) } : {}),
  };
}
