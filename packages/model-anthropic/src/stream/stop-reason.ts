import type { StopReason } from '@skein/core';

/**
 * Anthropic's stop reasons in the Converse spelling. `refusal` is a content filter, `pause_turn`
 * (a server tool paused a long turn) ends the turn, and `model_context_window_exceeded` (the answer
 * was cut by the context window) reads as `max_tokens`. Unknown reasons pass through unchanged.
 */
export function toStopReason(reason: string | null | undefined): StopReason | (string & {}) {
  switch (reason) {
    case null:
    case undefined:
    case 'end_turn':
    case 'pause_turn':
      return 'end_turn';
    case 'tool_use':
      return 'tool_use';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'refusal':
      return 'content_filtered';
    default:
      return reason;
  }
}
