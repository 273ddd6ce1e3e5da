import type { JsonObject, Message } from '@skein/core';
import { num, obj, str } from './json-read.js';
import { messageText } from './message-text.js';
import type { NodeResultView } from './run-types.js';
import type { OrchestratorView } from './session-view.js';

/** The latest result of each node: a graph entry `{ result }`, a swarm entry (the result itself), or Strands' `node_results`. */
export function nodeResults(run: OrchestratorView): Record<string, NodeResultView> {
  const out: Record<string, NodeResultView> = {};
  const add = (id: string, r: JsonObject): void => {
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
    out[id] = view;
  };
  for (const [id, entry] of Object.entries(run.nodes)) {
    if (id.startsWith('run.')) continue;
    add(id, obj(entry['result']) ?? entry);
  }
  const strandsResults = obj(run.state['node_results']);
  if (run.strands && strandsResults)
    for (const [id, r] of Object.entries(strandsResults)) if (obj(r)) add(id, obj(r) as JsonObject);
  return out;
}
