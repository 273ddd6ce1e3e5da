import type { AgentEventData } from '../agent/agent-events.js';
import type { HandoffRequest } from '../agent/handoff.js';
import { errorToolResult, type ToolResult, type ToolUse } from '../types/messages.js';
import { EventChannel } from '../events/event-channel.js';
import type { Invocation, LoopHost } from './loop-host.js';
import type { OfferedTools } from './model-call.js';
import type { Interrupt, NestedAgentState } from '../interrupt/interrupt.js';
import type { BudgetExceeded } from '../budget/budget-types.js';
import { runTool, type ToolPaused } from './run-tool.js';
import type { ModelTurn } from './stream-accumulator.js';
import { runTransfers } from './transfers.js';
import type { NestedStream } from '../events/nested-stream.js';

/**
 * Results of all tool uses of one turn (in the order the model asked), and a transfer if one won.
 * When some uses wait for a person, `interrupts` lists what they asked; when the budget stopped some,
 * `stopped` names the limit; their results are `null`, and `nested` keeps where the nested agents they
 * ran stood (by tool use id).
 */
export interface ToolsOutcome {
  results: (ToolResult | null)[];
  handoff: HandoffRequest | undefined;
  interrupts: Interrupt[];
  stopped: BudgetExceeded | undefined;
  nested: Record<string, NestedAgentState> | undefined;
}

/**
 * The regular tool uses of one turn as they run: their results by position, and what the uses that
 * did not finish left behind (what they asked, the limit that stopped them, where their nested agents
 * stood). One object per turn, passed to module functions (rather than closures made per turn:
 * builds that keep function names add a defineProperty call for every named closure they create).
 */
interface ToolTurn {
  readonly host: LoopHost;
  readonly inv: Invocation;
  readonly turn: ModelTurn;
  readonly uses: readonly ToolUse[];
  readonly offered: OfferedTools;
  readonly results: (ToolResult | null)[];
  asked: Interrupt[][];
  stopped: BudgetExceeded | undefined;
  nested: Record<string, NestedAgentState> | undefined;
}

/**
 * Runs the tool uses of one turn: regular tools concurrently (bounded) or sequentially, then
 * handoffs in order, where the first valid one wins and later ones are refused.
 */
export async function executeTools(
  host: LoopHost,
  inv: Invocation,
  turn: ModelTurn,
  uses: readonly ToolUse[],
  offered: OfferedTools,
  done?: readonly (ToolResult | null)[],
): Promise<ToolsOutcome> {
  const results: (ToolResult | null)[] = done ? [...done] : new Array<ToolResult | null>(uses.length).fill(null);
  const regular: number[] = [];
  const transfers: number[] = [];
  for (let i = 0; i < uses.length; i++) {
    if (results[i]) continue;
    if (offered.handoffs?.has((uses[i] as ToolUse).name)) transfers.push(i);
    else regular.push(i);
  }
  const t: ToolTurn = {
    host,
    inv,
    turn,
    uses,
    offered,
    results,
    asked: [],
    stopped: undefined,
    nested: undefined,
  };
  if (host.toolExecutor === 'sequential' || regular.length <= 1) {
    // One after the other, each between its events (written out here: the usual turn has one use).
    for (const i of regular) {
      const use = uses[i] as ToolUse;
      const started = inv.unobserved ? undefined : inv.emit({ type: 'toolStart', toolUse: use });
      if (started) await started;
      const result = record(t, i, await runUse(t, use, inv.nested ? inv.emit : undefined));
      const shown = result && !inv.unobserved ? inv.emit({ type: 'toolResult', toolResult: result }) : undefined;
      if (shown) await shown;
    }
  } else {
    await runConcurrently(t, regular);
  }
  // Handoffs wait until no tool use waits for a person (they run when the turn resumes).
  const { stopped, nested } = t;
  const interrupts = t.asked.length > 0 ? t.asked.flat() : [];
  if (interrupts.length > 0 || stopped) return { results, handoff: undefined, interrupts, stopped, nested };
  const handoff =
    transfers.length > 0 ? await runTransfers(host, inv, turn, uses, offered, transfers, results) : undefined;
  return {
    results,
    handoff,
    interrupts,
    stopped: undefined,
    nested: undefined,
  };
}

/**
 * Runs the uses at most `maxConcurrentTools` at a time. Their events are queued as they happen (the
 * tools do not wait for the reader) and handed on in that order; this ends when all ran and all
 * their events were taken.
 */
async function runConcurrently(t: ToolTurn, indexes: readonly number[]): Promise<void> {
  const channel = new EventChannel<AgentEventData>();
  const forward = t.inv.nested
    ? (event: AgentEventData): undefined => {
        channel.push(event);
        return undefined;
      }
    : undefined;
  const queue = new (await loadPQueue())({
    concurrency: t.host.maxConcurrentTools,
  });
  const all = Promise.all(
    indexes.map((i) =>
      queue.add(async () => {
        const use = t.uses[i] as ToolUse;
        channel.push({ type: 'toolStart', toolUse: use });
        const result = record(t, i, await runUse(t, use, forward));
        if (result) channel.push({ type: 'toolResult', toolResult: result });
      }),
    ),
  ).finally(() => channel.close());
  for (let event = await channel.next(); event !== undefined; event = await channel.next()) await t.inv.emit(event);
  await all;
}

/**
 * Runs one regular tool use: refused by the budget, or found among the offered tools and run;
 * `forward` takes the events of an agent it runs (`asTool`).
 */
function runUse(
  t: ToolTurn,
  use: ToolUse,
  forward: NestedStream['forward'] | undefined,
): Promise<ToolResult | ToolPaused> {
  const { host, inv } = t;
  const guarded = t.turn.refused?.get(use.toolUseId);
  if (guarded !== undefined) return Promise.resolve(errorToolResult(use.toolUseId, guarded));
  const refused = inv.budget?.tool();
  // Refused: the use stays in the turn without a result (a resume runs it), keeping what a stop before kept.
  if (refused)
    return Promise.resolve({
      interrupts: [],
      budget: refused,
      nested: inv.resume?.turn.nested?.[use.toolUseId],
    });
  const found = t.offered.extras?.get(use.name) ?? host.tools.get(use.name);
  return runTool(host, inv, use, found, t.turn.invalidInputs?.get(use.toolUseId), forward);
}

/** Keeps a use's result, or what it left unfinished (what it asked, the limit that stopped it); returns the result to report. */
function record(t: ToolTurn, i: number, outcome: ToolResult | ToolPaused): ToolResult | undefined {
  if (!('interrupts' in outcome)) return (t.results[i] = outcome);
  t.asked[i] = outcome.interrupts;
  if (outcome.budget) t.stopped ??= outcome.budget;
  if (outcome.nested) (t.nested ??= {})[(t.uses[i] as ToolUse).toolUseId] = outcome.nested;
  return undefined;
}

type PQueueClass = typeof import('p-queue').default;
let pQueue: Promise<PQueueClass> | undefined;

/** p-queue, loaded on the first concurrent batch (keeps `import '@skein/core'` fast). */
function loadPQueue(): Promise<PQueueClass> {
  pQueue ??= import('p-queue').then((m) => m.default);
  return pQueue;
}
