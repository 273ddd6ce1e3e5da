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
  const read = num(usage?.['cacheReadInputTokens']) ?? 0;
  const write = num(usage?.['cacheWriteInputTokens']) ?? 0;
  if (read > 0 || write > 0) view.cache = { read, write };
  const models = obj(r['models']);
  if (models && Object.keys(models).length > 0)
    view.models = Object.fromEntries(Object.entries(models).map(([id, n]) => [id, num(n) ?? 0]));
  return view;
}
