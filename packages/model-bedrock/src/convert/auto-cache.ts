import type { ConverseStreamCommandInput, Message as ConverseMessage } from '@aws-sdk/client-bedrock-runtime';

/** Bedrock takes at most this many cache points per request. */
const MAX_CACHE_POINTS = 4;

const isCachePoint = (block: object): boolean => 'cachePoint' in block && block.cachePoint !== undefined;

/**
 * Places cache points on a Converse input (`cache: 'auto'`): after the system prompt, after the
 * tools, and at the end of the last message. The first two are the same bytes on every turn; the
 * last moves to the end of the conversation, so each turn reads the prefix the previous one wrote.
 * Cache points the caller placed in the history are kept, the oldest dropped first when there would
 * be more than Bedrock's 4.
 */
export function placeCachePoints(input: ConverseStreamCommandInput): void {
  let placed = 0;
  const system = input.system;
  if (system && system.length > 0) {
    if (!isCachePoint(system.at(-1) as object)) system.push({ cachePoint: { type: 'default' } });
    placed++;
  }
  const tools = input.toolConfig?.tools;
  if (tools && tools.length > 0) {
    if (!isCachePoint(tools.at(-1) as object)) tools.push({ cachePoint: { type: 'default' } });
    placed++;
  }
  const messages: ConverseMessage[] = input.messages ?? [];
  const last = messages.at(-1)?.content;
  if (last && last.length > 0) {
    if (!isCachePoint(last.at(-1) as object)) last.push({ cachePoint: { type: 'default' } });
    placed++;
  }
  // The caller's own cache points in the history, oldest first: keep the newest that still fit.
  const own: { content: unknown[]; block: unknown }[] = [];
  for (const message of messages) {
    const content = message.content ?? [];
    for (const block of content) if (isCachePoint(block) && block !== last?.at(-1)) own.push({ content, block });
  }
  for (let extra = placed + own.length - MAX_CACHE_POINTS, i = 0; extra > 0; extra--, i++) {
    const drop = own[i];
    if (drop) drop.content.splice(drop.content.indexOf(drop.block), 1);
  }
}
