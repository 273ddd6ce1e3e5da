/**
 * The chunks of the AI SDK's UI message stream (protocol `v1`, header `x-vercel-ai-ui-message-stream`)
 * that the server sends: the subset of `UIMessageChunk` from the `ai` package it uses, typed here so
 * the server does not depend on `ai` at run time.
 */
export type UiChunk =
  | { type: 'start'; messageId?: string }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'reset-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | {
      type: 'tool-input-available';
      toolCallId: string;
      toolName: string;
      input: unknown;
      dynamic: true;
      title?: string;
    }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic: true }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic: true }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string; reason?: string }
  | { type: `data-skein-${string}`; id?: string; data: unknown; transient?: boolean }
  | { type: 'error'; errorText: string }
  | {
      type: 'finish';
      finishReason: 'stop' | 'length' | 'tool-calls' | 'error' | 'interrupted' | 'content-filter' | 'other';
    };

/** Response headers of a UI message stream (as `ai`'s `UI_MESSAGE_STREAM_HEADERS`). */
export const UI_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
});

/** The last frame of a UI message stream. */
export const UI_STREAM_DONE = 'data: [DONE]\n\n';
