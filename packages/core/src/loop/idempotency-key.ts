import type { Message, ToolUse } from '../types/messages.js';

/**
 * The idempotency key of a tool call: a hash of the invocation's scope (who calls: the session and
 * agent, or the orchestrator run, node and execution), the position of the prompt the call answers
 * in the agent's whole history, the tool's name and input, and how many identical calls of that
 * prompt came before it. A call re-asked after a retry, a budget stop or a crash (same prompt, same
 * tool and input; the earlier attempt has no successful result) gets the same key; a new call (a new
 * prompt, other input, or the same call after one that succeeded) gets another.
 */
export function idempotencyKey(scope: string, history: readonly Message[], offset: number, use: ToolUse): string {
  const at = findUse(history, use);
  const parts = [scope, use.name, canonicalJson(use.input)];
  if (!at) return hash([...parts, `direct:${use.toolUseId}`]);
  const prompt = promptBefore(history, at.message);
  const occurrence = earlierIdentical(history, prompt + 1, at, use);
  return hash([...parts, String(offset + prompt), String(occurrence)]);
}

/** SHA-256, base64url. node:crypto is loaded on the first key (a tool that reads one), not with core. */
export function hash(parts: readonly string[]): string {
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url');
}

/** Where `use` sits in the history: the assistant message holding it and its block index. */
function findUse(history: readonly Message[], use: ToolUse): { message: number; block: number } | undefined {
  for (let m = history.length - 1; m >= 0; m--) {
    const message = history[m] as Message;
    if (message.role !== 'assistant') continue;
    const block = message.content.findIndex((b) => 'toolUse' in b && b.toolUse.toolUseId === use.toolUseId);
    if (block >= 0) return { message: m, block };
  }
  return undefined;
}

/** The index of the last user message before `before` that is a prompt (not only tool results); -1 if none. */
function promptBefore(history: readonly Message[], before: number): number {
  for (let m = before - 1; m >= 0; m--) {
    const message = history[m] as Message;
    if (message.role === 'user' && message.content.some((b) => !('toolResult' in b))) return m;
  }
  return -1;
}

/**
 * Identical calls (same name and input) before `at` since the prompt: those of earlier turns that
 * succeeded (an attempt cut by a crash or refused has an error result: its re-ask is the same call),
 * and those earlier in the same turn.
 */
function earlierIdentical(
  history: readonly Message[],
  from: number,
  at: { message: number; block: number },
  use: ToolUse,
): number {
  const input = canonicalJson(use.input);
  const same = (u: ToolUse): boolean => u.name === use.name && canonicalJson(u.input) === input;
  const succeeded = new Set<string>();
  for (let m = from; m < at.message; m++) {
    for (const b of (history[m] as Message).content)
      if ('toolResult' in b && b.toolResult.status === 'success') succeeded.add(b.toolResult.toolUseId);
  }
  let count = 0;
  for (let m = from; m <= at.message; m++) {
    const message = history[m] as Message;
    if (message.role !== 'assistant') continue;
    const blocks = m === at.message ? message.content.slice(0, at.block) : message.content;
    for (const b of blocks) {
      if (!('toolUse' in b) || !same(b.toolUse)) continue;
      if (m === at.message || succeeded.has(b.toolUse.toolUseId)) count++;
    }
  }
  return count;
}

/** JSON with object keys sorted, so equal inputs give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
