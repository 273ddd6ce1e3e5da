/** The markers around a nested conversation history. */
export interface ConversationHistoryWrappers {
  /** The line that opens the history. Default `<CONVERSATION HISTORY>`. */
  start: string;
  /** The line that closes the history. Default `</CONVERSATION HISTORY>`. */
  end: string;
}

/** The default markers around a nested conversation history. */
export const DEFAULT_CONVERSATION_HISTORY_WRAPPERS: Readonly<ConversationHistoryWrappers> = Object.freeze({
  start: '<CONVERSATION HISTORY>',
  end: '</CONVERSATION HISTORY>',
});

let current: ConversationHistoryWrappers = { ...DEFAULT_CONVERSATION_HISTORY_WRAPPERS };

/**
 * Changes the markers the default history mapper writes (and recognizes when it folds an earlier
 * summary into a new one). Process-wide: call it once before running agents.
 * @example
 * setConversationHistoryWrappers({ start: '<PRIOR TRANSCRIPT>', end: '</PRIOR TRANSCRIPT>' });
 */
export function setConversationHistoryWrappers(wrappers: Partial<ConversationHistoryWrappers>): void {
  for (const key of ['start', 'end'] as const) {
    const value = wrappers[key];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw new TypeError(`setConversationHistoryWrappers: ${key} must be a non-empty string.`);
    }
  }
  const next: ConversationHistoryWrappers = {
    start: wrappers.start ?? current.start,
    end: wrappers.end ?? current.end,
  };
  if (next.start === next.end) throw new TypeError('setConversationHistoryWrappers: start and end must differ.');
  current = next;
}

/** Restores the default markers `<CONVERSATION HISTORY>` / `</CONVERSATION HISTORY>`. */
export function resetConversationHistoryWrappers(): void {
  current = { ...DEFAULT_CONVERSATION_HISTORY_WRAPPERS };
}

/** The markers in use now. */
export function getConversationHistoryWrappers(): ConversationHistoryWrappers {
  return { ...current };
}
