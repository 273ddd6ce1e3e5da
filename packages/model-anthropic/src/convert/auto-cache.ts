import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';

/** Anthropic takes at most this many `cache_control` breakpoints per request. */
const MAX_BREAKPOINTS = 4;

const EPHEMERAL = { type: 'ephemeral' } as const;

/** A block that can carry `cache_control`. */
type Cacheable = Exclude<ContentBlockParam, { type: 'thinking' } | { type: 'redacted_thinking' }>;

/** Blocks that can carry `cache_control` (thinking blocks cannot). */
function cacheable(block: ContentBlockParam): block is Cacheable {
  return block.type !== 'thinking' && block.type !== 'redacted_thinking';
}

/**
 * Places prompt-cache breakpoints on a request body (`cache: 'auto'`): after the system prompt,
 * after the tools, and on the last block of the last message. The first two are the same bytes on
 * every turn; the last moves to the end of the conversation, so each turn reads the prefix the
 * previous one wrote. Breakpoints the caller placed (`cachePoint` blocks) are kept, the oldest
 * dropped first when there would be more than Anthropic's 4.
 */
export function placeCacheBreakpoints(body: MessageCreateParamsStreaming): void {
  let placed = 0;
  if (typeof body.system === 'string' && body.system !== '') {
    const system: TextBlockParam[] = [{ type: 'text', text: body.system, cache_control: EPHEMERAL }];
    body.system = system;
    placed++;
  }
  const lastTool = body.tools?.at(-1);
  if (lastTool) {
    lastTool.cache_control = EPHEMERAL;
    placed++;
  }
  const content = body.messages.at(-1)?.content;
  const target = Array.isArray(content) ? (content.findLast(cacheable) as Cacheable | undefined) : undefined;
  // The caller's own breakpoints in the history, oldest first: keep the newest that still fit.
  const manual: Cacheable[] = [];
  for (const message of body.messages)
    if (Array.isArray(message.content))
      for (const block of message.content)
        if (cacheable(block) && block.cache_control && block !== target) manual.push(block);
  if (target) {
    target.cache_control = EPHEMERAL;
    placed++;
  }
  for (let extra = placed + manual.length - MAX_BREAKPOINTS, i = 0; extra > 0; extra--, i++) {
    const block = manual[i];
    if (block) delete block.cache_control;
  }
}
