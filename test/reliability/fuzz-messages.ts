/**
 * Prompts, messages and content blocks of unknown shapes given to `agent.invoke` on an agent whose
 * session (FileSessionManager) already holds a turn. Rejected: a skein error naming the prompt or
 * the block, and the stored session unchanged (only `updated_at` may move). Accepted: the stored
 * session reads back into a fresh agent with no toolUse missing its toolResult.
 */
import { Agent, type Message, type Prompt } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { FileSessionManager } from '@skein/session-file';
import {
  attempt,
  changes,
  describeError,
  errorProblems,
  ignoreUpdatedAt,
  outsideChanges,
  sandbox,
  snapshot,
  type FuzzCaseReport,
} from './fuzz-support.js';

const circular: Record<string, unknown> = { text: 'loop' };
circular['self'] = circular;

/** Prompts of unknown shapes (cast: the point is what a JavaScript caller can pass). */
const PROMPTS: [label: string, prompt: unknown][] = [
  ['a number', 42],
  ['null', null],
  ['an object', { text: 'hi' }],
  ['a bare message', { role: 'user', content: [{ text: 'hi' }] }],
  ['a block that is a number', [5]],
  ['a block that is null', [null]],
  ['a block that is a string', ['hi']],
  ['a block of unknown kind', [{ hologram: { depth: 3 } }]],
  ['an empty block', [{}]],
  ['text a number', [{ text: 5 }]],
  ['two kinds in one block', [{ text: 'a', toolUse: { toolUseId: 't1', name: 'lookup', input: {} } }]],
  ['a message with role system', [{ role: 'system', content: [{ text: 'x' }] }]],
  ['a message whose content is a string', [{ role: 'user', content: 'x' }]],
  ['a message whose content holds a number', [{ role: 'user', content: [5] }]],
  ['a second message of unknown shape', [{ role: 'user', content: [{ text: 'a' }] }, { foo: 1 }]],
  [
    'a toolResult for no toolUse',
    [{ role: 'user', content: [{ toolResult: { toolUseId: 'nope', status: 'success', content: [{ text: 'x' }] } }] }],
  ],
  [
    'a dangling toolUse',
    [
      { role: 'user', content: [{ text: 'q' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'dangling', name: 'lookup', input: {} } }] },
    ],
  ],
  ['a toolResult with a bad status', [{ toolResult: { toolUseId: 'x', status: 'maybe', content: 'text' } }]],
  ['image bytes a string', [{ image: { format: 'png', source: { bytes: 'not bytes' } } }]],
  ['image without source', [{ image: { format: 'png' } }]],
  ['document bytes a number', [{ document: { format: 'pdf', name: 'x', source: { bytes: 5 } } }]],
  ['a json block with a BigInt', [{ json: { big: 10n } }]],
  ['a block with a function', [{ text: 'x', extra: () => 1 }]],
  ['a circular block', [circular]],
  ['reasoningContent a number', [{ reasoningContent: 5 }]],
  ['cachePoint of unknown type', [{ cachePoint: { type: 'forever' } }]],
  ['a 5 MB text', 'x'.repeat(5 << 20)],
  ['NUL and a lone surrogate in text', 'a\u0000b\ud800c'],
  [
    'an interruptResponse mixed with text',
    [{ interruptResponse: { interruptId: 'x', response: true } }, { text: 'hi' }],
  ],
  ['an interruptResponse for nothing', [{ interruptResponse: { interruptId: 'nope', response: true } }]],
  ['a Symbol', Symbol('prompt')],
  ['a function', () => 'hi'],
];

/** The number of message cases (seeds cycle through them). */
export const MESSAGE_CASES = PROMPTS.length;

function orphans(messages: readonly Message[]): string[] {
  const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as unknown[]) : []));
  const objects = blocks.filter((b): b is Record<string, unknown> => typeof b === 'object' && b !== null);
  const results = new Set(
    objects.flatMap((b) => ('toolResult' in b ? [(b['toolResult'] as { toolUseId?: unknown }).toolUseId] : [])),
  );
  return objects.flatMap((b) =>
    'toolUse' in b && !results.has((b['toolUse'] as { toolUseId?: unknown }).toolUseId)
      ? [String((b['toolUse'] as { toolUseId?: unknown }).toolUseId)]
      : [],
  );
}

/** One case: the seed picks the prompt (cycling). */
export async function messageCase(seed: number): Promise<FuzzCaseReport> {
  const [label, prompt] = PROMPTS[seed % PROMPTS.length]!;
  const s = await sandbox();
  const violations: string[] = [];
  let outcome: FuzzCaseReport['outcome'] = 'accepted';
  let error: string | undefined;
  try {
    const sessionManager = new FileSessionManager({ sessionId: 'fuzz', storageDir: s.root });
    const agent = new Agent({ id: 'a1', model: new ScriptedModel(['Noted.'], { loop: true }), sessionManager });
    await agent.invoke('Hello.');
    const before = await snapshot(s.parent, ignoreUpdatedAt);
    const failure = await attempt(() => agent.invoke(prompt as Prompt));
    const after = await snapshot(s.parent, ignoreUpdatedAt);
    await sessionManager.close();
    violations.push(...outsideChanges(before, after, s.parent, s.root));
    if (failure !== undefined) {
      outcome = 'rejected';
      error = describeError(failure);
      violations.push(...errorProblems(failure, { names: /prompt|content|block|message|interrupt/i }));
      violations.push(...changes(before, after).map((c) => `a rejected prompt changed the store: ${c}`));
    } else {
      const again = new FileSessionManager({ sessionId: 'fuzz', storageDir: s.root });
      const restored = new Agent({
        id: 'a1',
        model: new ScriptedModel(['Again.'], { loop: true }),
        sessionManager: again,
      });
      const reread = await attempt(() => restored.initialize());
      await again.close();
      if (reread !== undefined) violations.push(`the stored prompt does not read back: ${describeError(reread)}`);
      else if (orphans(restored.messages).length > 0)
        violations.push(
          `restored history has a toolUse without its toolResult: ${orphans(restored.messages).join(', ')}`,
        );
    }
  } finally {
    await s.remove();
  }
  return { category: 'messages', name: label, outcome, ...(error ? { error } : {}), violations };
}
