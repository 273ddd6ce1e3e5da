import type { Message } from '../types/messages.js';
import type { Invocation, LoopHost } from './loop-host.js';

/** What the previous call of an agent sent before its last cache breakpoint. */
interface SentPrefix {
  system: string | undefined;
  messages: Message[];
}

const sent = new WeakMap<LoopHost, SentPrefix>();

/** Whether `messages` still starts with every message of `prefix`, the same objects in the same places. */
function keeps(prefix: readonly Message[], messages: readonly Message[]): boolean {
  if (messages.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== messages[i]) return false;
  return true;
}

/**
 * For a model that places prompt-cache breakpoints itself (`cache: 'auto'`): when the history the
 * previous call sent is no longer the start of this one (a conversation manager trimmed or
 * summarized it, memory rewrote it) or the system prompt sent (`system`: the agent's, as hooks left it) changed, emits a `warning` event: this call
 * writes the cache anew instead of reading it. Does nothing for other models.
 */
export async function checkCachePrefix(host: LoopHost, inv: Invocation, system: string | undefined): Promise<void> {
  if (host.model.cache !== 'auto') return;
  const messages = host.messages();
  const before = sent.get(host);
  sent.set(host, { system, messages: [...messages] });
  if (!before || inv.unobserved) return;
  const what =
    before.system !== system
      ? 'the system prompt changed'
      : keeps(before.messages, messages)
        ? undefined
        : 'the history the previous call sent was rewritten (a conversation manager trimmed or summarized it, or memory changed it)';
  if (!what) return;
  const shown = inv.emit({
    type: 'warning',
    code: 'cache_prefix_rewritten',
    message: `Prompt cache of ${host.model.modelId}: ${what}, so this call writes the cache anew instead of reading it. Keep the start of the conversation stable to keep cache hits.`,
  });
  if (shown) await shown;
}
