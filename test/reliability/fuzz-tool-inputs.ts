/**
 * Tool inputs that are not JSON or break the schema: a ScriptedModel (from @skein/core/testing) asks
 * for a tool with raw input text, then answers. The invocation must complete (bad input becomes an
 * error toolResult the model reads, never a crash), the tool must run only with input its schema
 * accepts, every toolUse must have its toolResult, an error result must say what was wrong, nothing
 * may pollute `Object.prototype`, and the stored session must read back.
 */
import { z } from 'zod';
import { Agent, tool, toolResultsOf, type Message } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { FileSessionManager } from '@skein/session-file';
import { attempt, describeError, outsideChanges, sandbox, snapshot, type FuzzCaseReport } from './fuzz-support.js';

const schema = z.object({ id: z.string(), count: z.number().int().optional() });

/** Raw inputs, the tool name asked for, and what an error result must mention. */
const INPUTS: [label: string, raw: string, name: string, names: RegExp][] = [
  ['not JSON', 'not json', 'lookup', /JSON|parse|input/i],
  ['empty', '', 'lookup', /JSON|input|id/i],
  ['cut JSON', '{"id":', 'lookup', /JSON|parse|input/i],
  ['an array', '[]', 'lookup', /object|array|input|id/i],
  ['a string', '"order 1"', 'lookup', /object|string|input|id/i],
  ['null', 'null', 'lookup', /object|null|input|id/i],
  ['a number', '123', 'lookup', /object|number|input|id/i],
  ['id a number', '{"id": 5}', 'lookup', /id/],
  ['count a fraction', '{"id": "1", "count": 1.5}', 'lookup', /count/],
  ['count past the float range', '{"id": "1", "count": 1e999}', 'lookup', /count/],
  ['a missing required field', '{"count": 2}', 'lookup', /id/],
  ['__proto__ pollution', '{"id": "1", "__proto__": {"polluted": true}}', 'lookup', /./],
  ['constructor.prototype pollution', '{"id": "1", "constructor": {"prototype": {"polluted": true}}}', 'lookup', /./],
  ['nested 10,000 deep', `{"id": "1", "deep": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 'lookup', /./],
  ['a 2 MB id', `{"id": "${'x'.repeat(2 << 20)}"}`, 'lookup', /./],
  ['NUL and a lone surrogate escaped', '{"id": "a\\u0000b\\ud800"}', 'lookup', /./],
  ['duplicate keys', '{"id": "1", "id": 2}', 'lookup', /id/],
  ['an unknown tool', '{"id": "1"}', 'nope', /nope|unknown|not found/i],
  ['an empty tool name', '{"id": "1"}', '', /tool|name|unknown|not found/i],
  ['a 10 kB tool name', '{"id": "1"}', 'x'.repeat(10_240), /tool|unknown|not found/i],
];

/** The number of tool-input cases (seeds cycle through them). */
export const TOOL_INPUT_CASES = INPUTS.length;

function pairsProblems(messages: readonly Message[]): string[] {
  const results = new Set(
    messages.flatMap((m) => m.content.flatMap((b) => ('toolResult' in b ? [b.toolResult.toolUseId] : []))),
  );
  const orphans = messages.flatMap((m) =>
    m.content.flatMap((b) => ('toolUse' in b && !results.has(b.toolUse.toolUseId) ? [b.toolUse.toolUseId] : [])),
  );
  return orphans.length > 0 ? [`toolUse without toolResult: ${orphans.join(', ')}`] : [];
}

/** One case: the seed picks the input (cycling). */
export async function toolInputCase(seed: number): Promise<FuzzCaseReport> {
  const [label, raw, name, names] = INPUTS[seed % INPUTS.length]!;
  const s = await sandbox();
  const violations: string[] = [];
  const ran: unknown[] = [];
  let outcome: FuzzCaseReport['outcome'] = 'accepted';
  let error: string | undefined;
  try {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks an order up.',
      inputSchema: schema,
      callback: (input) => (ran.push(input), `order ${input.id}: 80 EUR`),
    });
    const sessionManager = new FileSessionManager({ sessionId: 'fuzz', storageDir: s.root });
    const model = new ScriptedModel([{ toolUses: [{ name, rawInput: raw, toolUseId: 'tu-1' }] }, 'Done.'], {
      inputChunkSize: 4096,
    });
    const agent = new Agent({ id: 'a1', model, tools: [lookup], sessionManager });
    const before = await snapshot(s.parent);
    const failure = await attempt(() => agent.invoke('Look order 1 up.'));
    await sessionManager.close();
    violations.push(...outsideChanges(before, await snapshot(s.parent), s.parent, s.root));
    if (failure !== undefined) {
      outcome = 'rejected';
      error = describeError(failure);
      violations.push(`the invocation failed instead of giving the model an error result: ${error}`);
    }
    if ((Object.prototype as Record<string, unknown>)['polluted'] !== undefined) {
      violations.push('Object.prototype was polluted');
      delete (Object.prototype as Record<string, unknown>)['polluted'];
    }
    for (const input of ran)
      if (!schema.safeParse(input).success)
        violations.push(`the tool ran with input its schema refuses: ${JSON.stringify(input).slice(0, 100)}`);
    violations.push(...pairsProblems(agent.messages));
    const result = agent.messages.flatMap((m) => toolResultsOf(m)).find((r) => r.toolUseId === 'tu-1');
    if (result?.status === 'error') {
      const text = result.content.map((c) => ('text' in c ? c.text : JSON.stringify(c))).join(' ');
      if (!names.test(text))
        violations.push(`the error result does not say what was wrong (${names}): ${text.slice(0, 200)}`);
    }
    if (ran.length > 0 || result?.status === 'success') outcome = 'accepted';
    else if (result?.status === 'error') outcome = 'rejected';
    const again = new FileSessionManager({ sessionId: 'fuzz', storageDir: s.root });
    const restored = new Agent({
      id: 'a1',
      model: new ScriptedModel(['Again.'], { loop: true }),
      sessionManager: again,
    });
    const reread = await attempt(() => restored.initialize());
    await again.close();
    if (reread !== undefined) violations.push(`the stored session does not read back: ${describeError(reread)}`);
  } finally {
    await s.remove();
  }
  return { category: 'tool inputs', name: label, outcome, ...(error ? { error } : {}), violations };
}
