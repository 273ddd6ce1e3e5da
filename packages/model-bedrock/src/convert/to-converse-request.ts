import type {
  ContentBlock as ConverseBlock,
  ConverseStreamCommandInput,
  Message as ConverseMessage,
  SystemContentBlock,
  Tool,
  ToolResultContentBlock,
} from '@aws-sdk/client-bedrock-runtime';
import { ModelError, type ContentBlock, type Message, type ModelRequest, type ToolResultContent } from '@skein/core';
import type { BedrockModelOptions } from '../bedrock-options.js';
import { placeCachePoints } from './auto-cache.js';

/** The parts of the options that shape every request. */
export type RequestOptions = Pick<BedrockModelOptions, 'params' | 'guardrail' | 'cachePrompt' | 'cacheTools' | 'cache'>;

function toolResultContent(item: ToolResultContent): ToolResultContentBlock {
  if ('text' in item) return { text: item.text };
  if ('json' in item) return { json: item.json };
  if ('image' in item) return { image: { format: item.image.format, source: { bytes: item.image.source.bytes } } };
  const { format, name, source } = item.document;
  return { document: { format, name, source: { bytes: source.bytes } } };
}

/** One core content block as a Converse content block. */
function toConverseBlock(block: ContentBlock): ConverseBlock {
  if ('text' in block) return { text: block.text };
  if ('toolUse' in block)
    return { toolUse: { toolUseId: block.toolUse.toolUseId, name: block.toolUse.name, input: block.toolUse.input } };
  if ('toolResult' in block) {
    const { toolUseId, status, content } = block.toolResult;
    return { toolResult: { toolUseId, status, content: content.map(toolResultContent) } };
  }
  if ('image' in block) return { image: { format: block.image.format, source: { bytes: block.image.source.bytes } } };
  if ('document' in block) {
    const { format, name, source } = block.document;
    return { document: { format, name, source: { bytes: source.bytes } } };
  }
  if ('reasoningContent' in block) {
    const { reasoningText, redactedContent } = block.reasoningContent;
    if (reasoningText) {
      const text =
        reasoningText.signature === undefined
          ? { text: reasoningText.text }
          : { text: reasoningText.text, signature: reasoningText.signature };
      return { reasoningContent: { reasoningText: text } };
    }
    if (redactedContent) return { reasoningContent: { redactedContent } };
    throw new ModelError(
      'A reasoningContent block has neither reasoningText nor redactedContent; Bedrock cannot accept it.',
    );
  }
  if ('cachePoint' in block) return { cachePoint: { type: block.cachePoint.type } };
  throw new ModelError(
    `Unknown content block with keys ${Object.keys(block as object).join(', ')}; Bedrock cannot accept it.`,
  );
}

/** Whether any message holds a tool use or a tool result. */
function hasToolBlocks(messages: readonly Message[]): boolean {
  return messages.some((m) => m.content.some((b) => 'toolUse' in b || 'toolResult' in b));
}

/**
 * Tool blocks as text (plus the images and documents of results), for requests without tool specs:
 * Converse rejects toolUse / toolResult blocks when the request has no toolConfig.
 */
function flattenToolBlocks(block: ContentBlock): ContentBlock[] {
  if ('toolUse' in block) {
    const { name, toolUseId, input } = block.toolUse;
    return [{ text: `[tool call ${name} (${toolUseId}) with input ${JSON.stringify(input)}]` }];
  }
  if (!('toolResult' in block)) return [block];
  const { toolUseId, status, content } = block.toolResult;
  const out: ContentBlock[] = [{ text: `[tool result of ${toolUseId} (${status})]` }];
  for (const item of content) out.push('json' in item ? { text: JSON.stringify(item.json) } : item);
  return out;
}

/**
 * Core messages as Converse messages. Consecutive messages of one role become one message (core
 * histories may hold two user messages in a row; Converse rejects that). `flattenTools` renders
 * tool blocks as text.
 */
function toConverseMessages(messages: readonly Message[], flattenTools = false): ConverseMessage[] {
  const out: ConverseMessage[] = [];
  let last: { role: Message['role']; content: ConverseBlock[] } | undefined;
  for (const message of messages) {
    const blocks = flattenTools ? message.content.flatMap(flattenToolBlocks) : message.content;
    const content = blocks.map(toConverseBlock);
    if (last && last.role === message.role) {
      last.content.push(...content);
      continue;
    }
    last = { role: message.role, content };
    out.push(last);
  }
  return out;
}

/** The ConverseStream / Converse input of one request (the same fields serve both commands). */
export function toConverseInput(
  modelId: string,
  request: ModelRequest,
  options: RequestOptions,
): ConverseStreamCommandInput {
  const hasSpecs = (request.toolSpecs?.length ?? 0) > 0;
  const flatten = !hasSpecs && hasToolBlocks(request.messages);
  const input: ConverseStreamCommandInput = { modelId, messages: toConverseMessages(request.messages, flatten) };
  if (request.systemPrompt !== undefined && request.systemPrompt !== '') {
    const system: SystemContentBlock[] = [{ text: request.systemPrompt }];
    if (options.cachePrompt) system.push({ cachePoint: { type: options.cachePrompt } });
    input.system = system;
  }
  if (request.toolSpecs && hasSpecs) {
    const tools: Tool[] = request.toolSpecs.map((spec) => ({
      toolSpec: {
        name: spec.name,
        description: spec.description,
        inputSchema: { json: spec.inputSchema.json as NonNullable<unknown> },
      },
    }));
    if (options.cacheTools) tools.push({ cachePoint: { type: options.cacheTools } });
    input.toolConfig = request.toolChoice ? { tools, toolChoice: request.toolChoice } : { tools };
  }
  const params = options.params;
  if (params) {
    const inference: NonNullable<ConverseStreamCommandInput['inferenceConfig']> = {};
    if (params.maxTokens !== undefined) inference.maxTokens = params.maxTokens;
    if (params.temperature !== undefined) inference.temperature = params.temperature;
    if (params.topP !== undefined) inference.topP = params.topP;
    if (params.stopSequences !== undefined) inference.stopSequences = params.stopSequences;
    if (Object.keys(inference).length > 0) input.inferenceConfig = inference;
    if (params.additionalModelRequestFields) input.additionalModelRequestFields = params.additionalModelRequestFields;
  }
  if (options.guardrail) input.guardrailConfig = { ...options.guardrail };
  if (options.cache === 'auto') placeCachePoints(input);
  return input;
}
