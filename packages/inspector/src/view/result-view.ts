import type { JsonObject, Message } from '@skein/core';
import { num, obj, str } from './json-read.js';
import { messageText } from './message-text.js';
import type { NodeResultView } from './run-types.js';

/** One stored node result (skein's or Strands'), as the inspector shows it. */
export function resultView(r: JsonObject): NodeResultView {
  const usage = obj(r['usage']) ?? obj(r['accumulated_usage']);
  const message = obj(obj(r['result'])?.['message']);
  const view: NodeResultView = {
    status: str(r['status']).toLowerCase() || 'unknown',
    text: str(r['text']) || (Array.isArray(message?.['content']) ? messageText(message as unknown as Message) : ''),
    tokens: num(usage?.['totalTokens']),
    executionTimeMs: num(r['executionTimeMs']) ?? num(r['execution_time']),
    executionCount: num(r['executionCount']) ?? num(r['execution_count']),
  };
  if (typeof r['error'] === 'string') view.error = r['error'];
  return view;
}
