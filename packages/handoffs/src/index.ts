export { handoff } from './handoff.js';
export type { HandoffOptions } from './handoff.js';
export { removeAllTools, stripToolBlocks } from './filters/remove-all-tools.js';
export { defaultHandoffHistoryMapper, nestHandoffHistory, transcriptEntries } from './filters/nest-handoff-history.js';
export type { HandoffHistoryMapper, NestHandoffHistoryOptions } from './filters/nest-handoff-history.js';
export { composeFilters } from './filters/compose-filters.js';
export {
  DEFAULT_CONVERSATION_HISTORY_WRAPPERS,
  getConversationHistoryWrappers,
  resetConversationHistoryWrappers,
  setConversationHistoryWrappers,
} from './history-wrappers.js';
export type { ConversationHistoryWrappers } from './history-wrappers.js';
export { resolveInputFilter } from './resolve-input-filter.js';
export type { HandoffRunSettings } from './resolve-input-filter.js';
export { appendMerged, handoffInputMessages, mergeSameRole } from './handoff-messages.js';
export { promptWithHandoffInstructions, RECOMMENDED_PROMPT_PREFIX } from './handoff-prompt.js';
// Re-exported from @skein/core for convenience: the contract types and the default naming.
export { defaultHandoff, defaultHandoffDescription, handoffToolName, isHandoff } from '@skein/core';
export type { Handoff, HandoffContext, HandoffInputData, HandoffInputFilter, HandoffRequest } from '@skein/core';
