/**
 * Provider fault campaign (issues 17 and 24): an agent with one tool on a real provider model (the
 * provider's own SDK) against that provider's loopback wire server, which injects one to four seeded
 * faults between good answers. The trial is one function over a per-provider fault table
 * (provider-faults-anthropic.ts, -bedrock.ts, -openai.ts). Each trial ends `completed` or `failed`
 * with a skein error; it is broken when it hangs, throws a non-skein error, leaves an invalid history
 * (a toolUse without its toolResult, a fragment of a failed stream), runs a tool twice or from a
 * failed stream, retries before the server's retry-after, fails although every fault was retryable
 * and no run of faults outlasted the attempts, or does not work again afterwards.
 */
import { z } from 'zod';
import { Agent, SkeinError, messageText, tool, type Message } from '@skein/core';
import { FINAL_TEXT, type Fault, type ProviderFaultTable } from './provider-fault-table.js';
import { anthropicFaults } from './provider-faults-anthropic.js';
import { bedrockFaults } from './provider-faults-bedrock.js';
import { openaiFaults } from './provider-faults-openai.js';
import { seededRandom } from './seeded.js';

const MAX_ATTEMPTS = 4;

/** What one trial did and what it broke. */
interface ProviderTrialReport {
  provider: string;
  seed: number;
  faults: string[];
  outcome: 'completed' | 'failed';
  error?: string;
  violations: string[];
  replay: string;
}

/** One provider's campaign: its fault kinds and a trial per seed. */
export interface ProviderCampaign {
  name: string;
  kinds: readonly string[];
  trial(seed: number): Promise<ProviderTrialReport>;
}

/** Tool pairs whole, no fragment of a failed stream. */
function historyProblems(messages: readonly Message[], cutId: string): string[] {
  const out: string[] = [];
  const uses = messages.flatMap((m) => m.content.flatMap((b) => ('toolUse' in b ? [b.toolUse.toolUseId] : [])));
  const results = new Set(
    messages.flatMap((m) => m.content.flatMap((b) => ('toolResult' in b ? [b.toolResult.toolUseId] : []))),
  );
  const orphans = uses.filter((u) => !results.has(u));
  if (orphans.length > 0) out.push(`toolUse without toolResult: ${orphans.join(', ')}`);
  if (messages.some((m) => messageText(m).includes('FRAGMENT')))
    out.push('a fragment of a failed stream is in the history');
  if (uses.includes(cutId)) out.push('a tool call of a cut stream is in the history');
  return out;
}

/** One trial: two lookups and a final answer, with 1-4 faults injected before seeded requests. */
async function providerTrial<R>(table: ProviderFaultTable<R>, seed: number): Promise<ProviderTrialReport> {
  const random = seededRandom(seed * 104729 + 17);
  const planned = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
    table.fault(table.kinds[Math.floor(random() * table.kinds.length)]!, random),
  );
  const pending = [...planned];
  const injected: { fault: Fault<R>; at: number }[] = [];
  const arrivals: number[] = [];
  const ran: string[] = [];
  const violations: string[] = [];
  let streak = 0;
  let longestStreak = 0;
  const wire = await table.start((toolResults) => {
    arrivals.push(performance.now());
    const last = injected.at(-1);
    if (last?.fault.retryAfterMs !== undefined && last.at === arrivals.length - 2) {
      const waited = arrivals.at(-1)! - arrivals.at(-2)!;
      if (waited < last.fault.retryAfterMs - 1)
        violations.push(
          `retried after ${waited.toFixed(0)} ms although the server asked for ${last.fault.retryAfterMs} ms`,
        );
    }
    if (pending.length > 0 && random() < 0.6) {
      const next = pending.shift()!;
      injected.push({ fault: next, at: arrivals.length - 1 });
      longestStreak = Math.max(longestStreak, ++streak);
      return { fault: next.reply };
    }
    streak = 0;
    return { good: toolResults < 2 ? { lookup: toolResults } : 'final' };
  });
  const lookup = tool({
    name: 'lookup',
    description: 'Looks an order up.',
    inputSchema: z.object({ id: z.string() }),
    callback: ({ id }, ctx) => (ran.push(ctx.toolUse.toolUseId), `order ${id}: 80 EUR`),
  });
  const agent = new Agent({
    model: wire.model,
    tools: [lookup],
    // SKEIN_RETRY_TRANSIENT=false retries throttling only (skein before issue 24): the campaign must then break.
    retryStrategy: {
      maxAttempts: MAX_ATTEMPTS,
      initialDelayMs: 2,
      transientInitialDelayMs: 2,
      maxDelayMs: 10,
      jitter: false,
      retryTransient: process.env['SKEIN_RETRY_TRANSIENT'] !== 'false',
    },
  });
  let outcome: 'completed' | 'failed' = 'completed';
  let error: string | undefined;
  try {
    const result = await withDeadline(agent.invoke('How much were orders 0 and 1?'), 20_000);
    if (String(result) !== FINAL_TEXT && !injected.some((i) => !i.fault.retryable))
      violations.push(`completed with ${JSON.stringify(String(result))}`);
  } catch (e) {
    outcome = 'failed';
    error = e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e);
    if (!(e instanceof SkeinError)) violations.push(`not a skein error: ${error}`);
    const allRetryable = injected.every((i) => i.fault.retryable);
    if (allRetryable && longestStreak < MAX_ATTEMPTS)
      violations.push(`failed on retryable faults (longest run ${longestStreak} < ${MAX_ATTEMPTS} attempts): ${error}`);
  }
  violations.push(...historyProblems(agent.messages, table.cutToolUseId));
  const twice = ran.filter((id, i) => ran.indexOf(id) !== i);
  if (twice.length > 0) violations.push(`tool ran twice: ${twice.join(', ')}`);
  if (ran.includes(table.cutToolUseId)) violations.push('a tool ran from a cut stream');
  // The agent works again afterwards (the faults not yet injected are dropped).
  pending.length = 0;
  try {
    await withDeadline(agent.invoke('And order 2?'), 20_000);
    violations.push(...historyProblems(agent.messages, table.cutToolUseId).map((p) => `after a further turn: ${p}`));
  } catch (e) {
    violations.push(`the agent does not work again: ${e instanceof Error ? e.message : String(e)}`);
  }
  await wire.close();
  const replay = `npm run reliability -- --campaign provider --provider ${table.name} --seed ${seed} --trials 1`;
  return {
    provider: table.name,
    seed,
    faults: injected.map((i) => i.fault.kind),
    outcome,
    ...(error ? { error } : {}),
    violations,
    replay,
  };
}

function campaignOf<R>(table: ProviderFaultTable<R>): ProviderCampaign {
  return { name: table.name, kinds: table.kinds, trial: (seed) => providerTrial(table, seed) };
}

/** The provider campaigns by `--provider` name. */
export const PROVIDER_CAMPAIGNS: Readonly<Record<string, ProviderCampaign>> = {
  anthropic: campaignOf(anthropicFaults),
  bedrock: campaignOf(bedrockFaults),
  openai: campaignOf(openaiFaults),
};

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`hung for ${ms} ms`)), ms)),
  );
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
