/**
 * Provider fault campaign (issue 24): an agent with one tool on `AnthropicModel` (the real SDK)
 * against the loopback Messages API server, which injects one to four seeded faults between good
 * answers. Each trial ends `completed` or `failed` with a skein error; it is broken when it hangs,
 * throws a non-skein error, leaves an invalid history (a toolUse without its toolResult, a fragment
 * of a failed stream), runs a tool twice, retries before the server's retry-after, fails although
 * every fault was retryable and no run of faults outlasted the attempts, or does not work again
 * afterwards.
 */
import { z } from 'zod';
import { Agent, SkeinError, messageText, tool, type Message } from '@skein/core';
import { AnthropicModel } from '@skein/model-anthropic';
import { AnthropicTestServer, answerEvents, encodeSse, errorBody, errorEvent, type RecordedHttpRequest, type ScriptedReply } from '@skein/model-anthropic/testing';
import { seededRandom } from './seeded.js';

/** A fault the server injects instead of a good answer; `retryable` faults must be absorbed. */
interface Fault {
  kind: string;
  retryable: boolean;
  /** The wait the server asked for, in ms. */
  retryAfterMs?: number;
  reply: ScriptedReply;
}

const MAX_ATTEMPTS = 4;
const partial = answerEvents({ blocks: [{ text: ['FRAGMENT of a cut ', 'answer'] }, { toolUse: { id: 'toolu_cut', name: 'lookup', inputChunks: ['{"id":', '"cut"}'] } }] });

/** The fault kinds of the campaign, in report order. */
export const FAULT_KINDS: readonly string[] = [
  '429 retry-after-ms', '429 no retry-after', '529 overloaded', '500', 'overloaded event mid-stream',
  'cut before message_stop', 'reset mid-stream', 'truncated event', 'malformed tool-call JSON', 'context overflow',
];

function fault(kind: string, random: () => number): Fault {
  switch (kind) {
    case '429 retry-after-ms': {
      const retryAfterMs = 5 + Math.floor(random() * 40);
      return { kind, retryable: true, retryAfterMs, reply: { status: 429, body: errorBody('rate_limit_error', 'slow down'), headers: { 'retry-after-ms': String(retryAfterMs) } } };
    }
    case '429 no retry-after':
      return { kind, retryable: true, reply: { status: 429, body: errorBody('rate_limit_error', 'slow down') } };
    case '529 overloaded':
      return { kind, retryable: true, reply: { status: 529, body: errorBody('overloaded_error', 'Overloaded') } };
    case '500':
      return { kind, retryable: true, reply: { status: 500, body: errorBody('api_error', 'Internal server error') } };
    case 'overloaded event mid-stream':
      return { kind, retryable: true, reply: { events: [...partial.slice(0, 5), errorEvent('overloaded_error', 'Overloaded')] } };
    case 'cut before message_stop':
      return { kind, retryable: true, reply: { events: partial, cutAfter: partial.length - 1 } };
    case 'reset mid-stream':
      return { kind, retryable: true, reply: { events: partial, cutAfter: 2 + Math.floor(random() * (partial.length - 4)) } };
    case 'truncated event': {
      const cut = encodeSse(partial[4]!).slice(0, 30);
      return { kind, retryable: true, reply: { events: [...partial.slice(0, 4), cut], cutAfter: 5 } };
    }
    case 'malformed tool-call JSON':
      return { kind, retryable: false, reply: { events: answerEvents({ blocks: [{ toolUse: { id: 'toolu_bad', name: 'lookup', inputChunks: ['{"id":', '"4'] } }] }) } };
    default:
      return { kind, retryable: false, reply: { status: 400, body: errorBody('invalid_request_error', 'prompt is too long: 250000 tokens > 200000 maximum') } };
  }
}

export interface ProviderTrialReport {
  seed: number;
  faults: string[];
  outcome: 'completed' | 'failed';
  error?: string;
  violations: string[];
  replay: string;
}

const toolResultCount = (request: RecordedHttpRequest): number => {
  const messages = ((request.body as { messages?: { content: unknown }[] } | undefined)?.messages ?? []);
  return messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type?: string }[]) : [])).filter((b) => b.type === 'tool_result').length;
};

/** Tool pairs whole, no fragment of a failed stream. */
function historyProblems(messages: readonly Message[]): string[] {
  const out: string[] = [];
  const uses = messages.flatMap((m) => m.content.flatMap((b) => ('toolUse' in b ? [b.toolUse.toolUseId] : [])));
  const results = new Set(messages.flatMap((m) => m.content.flatMap((b) => ('toolResult' in b ? [b.toolResult.toolUseId] : []))));
  const orphans = uses.filter((u) => !results.has(u));
  if (orphans.length > 0) out.push(`toolUse without toolResult: ${orphans.join(', ')}`);
  if (messages.some((m) => messageText(m).includes('FRAGMENT'))) out.push('a fragment of a failed stream is in the history');
  if (uses.includes('toolu_cut')) out.push('a tool call of a cut stream is in the history');
  return out;
}

/** One trial: two lookups and a final answer, with 1-4 faults injected before seeded requests. */
export async function providerTrial(seed: number): Promise<ProviderTrialReport> {
  const random = seededRandom(seed * 104729 + 17);
  const planned = Array.from({ length: 1 + Math.floor(random() * 4) }, () => fault(FAULT_KINDS[Math.floor(random() * FAULT_KINDS.length)]!, random));
  const pending = [...planned];
  const injected: { fault: Fault; at: number }[] = [];
  const arrivals: number[] = [];
  const server = await AnthropicTestServer.start({ record: false, loop: true });
  const ran: string[] = [];
  const violations: string[] = [];
  let streak = 0;
  let longestStreak = 0;
  server.enqueue((request) => {
    arrivals.push(performance.now());
    const last = injected.at(-1);
    if (last?.fault.retryAfterMs !== undefined && last.at === arrivals.length - 2) {
      const waited = arrivals.at(-1)! - arrivals.at(-2)!;
      if (waited < last.fault.retryAfterMs - 1) violations.push(`retried after ${waited.toFixed(0)} ms although the server asked for ${last.fault.retryAfterMs} ms`);
    }
    if (pending.length > 0 && random() < 0.6) {
      const next = pending.shift()!;
      injected.push({ fault: next, at: arrivals.length - 1 });
      longestStreak = Math.max(longestStreak, ++streak);
      return typeof next.reply === 'function' ? next.reply(request) : next.reply;
    }
    streak = 0;
    const done = toolResultCount(request);
    if (done < 2) return { events: answerEvents({ blocks: [{ text: ['Looking.'] }, { toolUse: { id: `toolu_${done}`, name: 'lookup', inputChunks: ['{"id":', `"${done}"}`] } }] }) };
    return { events: answerEvents({ blocks: [{ text: ['Both orders ', 'are 80 EUR.'] }] }) };
  });
  const lookup = tool({ name: 'lookup', description: 'Looks an order up.', inputSchema: z.object({ id: z.string() }), callback: ({ id }, ctx) => (ran.push(ctx.toolUse.toolUseId), `order ${id}: 80 EUR`) });
  const agent = new Agent({
    model: new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: server.url } }),
    tools: [lookup],
    // SKEIN_RETRY_TRANSIENT=false retries throttling only (skein before issue 24): the campaign must then break.
    retryStrategy: { maxAttempts: MAX_ATTEMPTS, initialDelayMs: 2, transientInitialDelayMs: 2, maxDelayMs: 10, jitter: false, retryTransient: process.env['SKEIN_RETRY_TRANSIENT'] !== 'false' },
  });
  let outcome: 'completed' | 'failed' = 'completed';
  let error: string | undefined;
  try {
    const result = await withDeadline(agent.invoke('How much were orders 0 and 1?'), 20_000);
    if (String(result) !== 'Both orders are 80 EUR.' && !injected.some((i) => !i.fault.retryable)) violations.push(`completed with ${JSON.stringify(String(result))}`);
  } catch (e) {
    outcome = 'failed';
    error = e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e);
    if (!(e instanceof SkeinError)) violations.push(`not a skein error: ${error}`);
    const allRetryable = injected.every((i) => i.fault.retryable);
    if (allRetryable && longestStreak < MAX_ATTEMPTS) violations.push(`failed on retryable faults (longest run ${longestStreak} < ${MAX_ATTEMPTS} attempts): ${error}`);
  }
  violations.push(...historyProblems(agent.messages));
  const twice = ran.filter((id, i) => ran.indexOf(id) !== i);
  if (twice.length > 0) violations.push(`tool ran twice: ${twice.join(', ')}`);
  if (ran.includes('toolu_cut')) violations.push('a tool ran from a cut stream');
  // The agent works again afterwards (the faults not yet injected are dropped).
  pending.length = 0;
  try {
    await withDeadline(agent.invoke('And order 2?'), 20_000);
    violations.push(...historyProblems(agent.messages).map((p) => `after a further turn: ${p}`));
  } catch (e) {
    violations.push(`the agent does not work again: ${e instanceof Error ? e.message : String(e)}`);
  }
  await server.close();
  return { seed, faults: injected.map((i) => i.fault.kind), outcome, ...(error ? { error } : {}), violations, replay: `npm run reliability -- --campaign provider --seed ${seed} --trials 1` };
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`hung for ${ms} ms`)), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
