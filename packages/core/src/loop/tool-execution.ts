import type { AgentStreamEvent } from '../agent/agent-events.js';
import type { HandoffRequest } from '../handoffs/handoff.js';
import { formatIssues } from '../tools/format-issues.js';
import { errorToolResult, type ToolResult, type ToolUse } from '../types/messages.js';
import { EventChannel } from '../events/event-channel.js';
import type { Invocation, LoopHost } from './loop-host.js';
import type { OfferedTools } from './model-call.js';
import type { Interrupt, NestedAgentState } from '../interrupt/interrupt.js';
import type { BudgetExceeded } from '../budget/budget-types.js';
import { errorMessage } from '../errors/error-message.js';
import { runTool, type ToolPaused } from './run-tool.js';
import type { ModelTurn } from './stream-accumulator.js';

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

/** What the turn's uses that did not finish left behind, collected as they end. */
interface Suspended {
  asked: Interrupt[][];
  stopped: BudgetExceeded | undefined;
  nested: Record<string, NestedAgentState> | undefined;
}

/**
 * Runs the tool uses of one turn: regular tools concurrently (bounded) or sequentially, then
 * handoffs in order, where the first valid one wins and later ones are refused.
 */
export async function* executeTools(
  host: LoopHost,
  inv: Invocation,
  turn: ModelTurn,
  uses: readonly ToolUse[],
  offered: OfferedTools,
  done?: readonly (ToolResult | null)[],
): AsyncGenerator<AgentStreamEvent, ToolsOutcome> {
  const results: (ToolResult | null)[] = done ? [...done] : new Array<ToolResult | null>(uses.length).fill(null);
  const regular: number[] = [];
  const transfers: number[] = [];
  for (let i = 0; i < uses.length; i++) {
    if (results[i]) continue;
    if (offered.handoffs?.has((uses[i] as ToolUse).name)) transfers.push(i);
    else regular.push(i);
  }
  const suspended: Suspended = { asked: [], stopped: undefined, nested: undefined };
  if (host.toolExecutor === 'sequential' || regular.length <= 1) {
    for (const i of regular) {
      if (!inv.unobserved) yield { type: 'toolStart', toolUse: uses[i] as ToolUse };
      const result = record(results, suspended, i, uses, await runUse(host, inv, turn, offered, uses[i] as ToolUse));
      if (result && !inv.unobserved) yield { type: 'toolResult', toolResult: result };
    }
  } else {
    yield* runConcurrently(
      host.maxConcurrentTools,
      regular,
      uses,
      (i) => runUse(host, inv, turn, offered, uses[i] as ToolUse),
      (i, outcome) => record(results, suspended, i, uses, outcome),
    );
  }
  // Handoffs wait until no tool use waits for a person (they run when the turn resumes).
  const { stopped, nested } = suspended;
  const interrupts = suspended.asked.length > 0 ? suspended.asked.flat() : [];
  if (interrupts.length > 0 || stopped) return { results, handoff: undefined, interrupts, stopped, nested };

  let handoff: HandoffRequest | undefined;
  for (const i of transfers) {
    const use = uses[i] as ToolUse;
    yield { type: 'toolStart', toolUse: use };
    let result: ToolResult;
    if (handoff) {
      result = errorToolResult(
        use.toolUseId,
        `Ignored: this turn already transferred to ${handoff.target.name}; only the first handoff of a turn is performed.`,
      );
    } else {
      const outcome = await tryHandoff(host, inv, use, offered, turn.invalidInputs?.get(use.toolUseId));
      result = outcome.result;
      handoff = outcome.handoff;
    }
    results[i] = result;
    yield { type: 'toolResult', toolResult: result };
  }
  return { results, handoff, interrupts, stopped: undefined, nested: undefined };
}

// Module functions rather than closures made per turn: builds that keep function names (tsx,
// esbuild's keepNames) add a defineProperty call for every named closure they create.

/** Runs one regular tool use: refused by the budget, or found among the offered tools and run. */
function runUse(
  host: LoopHost,
  inv: Invocation,
  turn: ModelTurn,
  offered: OfferedTools,
  use: ToolUse,
): Promise<ToolResult | ToolPaused> {
  const refused = inv.budget?.tool();
  // Refused: the use stays in the turn without a result (a resume runs it), keeping what a stop before kept.
  if (refused)
    return Promise.resolve({ interrupts: [], budget: refused, nested: inv.resume?.turn.nested?.[use.toolUseId] });
  const found = offered.extras?.get(use.name) ?? host.tools.get(use.name);
  return runTool(host, inv, use, found, turn.invalidInputs?.get(use.toolUseId));
}

/** Keeps a use's result, or what it left unfinished (what it asked, the limit that stopped it); returns the result to report. */
function record(
  results: (ToolResult | null)[],
  suspended: Suspended,
  i: number,
  uses: readonly ToolUse[],
  outcome: ToolResult | ToolPaused,
): ToolResult | undefined {
  if (!('interrupts' in outcome)) return (results[i] = outcome);
  suspended.asked[i] = outcome.interrupts;
  if (outcome.budget) suspended.stopped ??= outcome.budget;
  if (outcome.nested) (suspended.nested ??= {})[(uses[i] as ToolUse).toolUseId] = outcome.nested;
  return undefined;
}

async function* runConcurrently(
  concurrency: number,
  indexes: readonly number[],
  uses: readonly ToolUse[],
  run: (i: number) => Promise<ToolResult | ToolPaused>,
  record: (i: number, outcome: ToolResult | ToolPaused) => ToolResult | undefined,
): AsyncGenerator<AgentStreamEvent, void> {
  const channel = new EventChannel<AgentStreamEvent>();
  const queue = new (await loadPQueue())({ concurrency });
  const all = Promise.all(
    indexes.map((i) =>
      queue.add(async () => {
        channel.push({ type: 'toolStart', toolUse: uses[i] as ToolUse });
        const result = record(i, await run(i));
        if (result) channel.push({ type: 'toolResult', toolResult: result });
      }),
    ),
  ).finally(() => channel.close());
  yield* channel;
  await all;
}

type PQueueClass = typeof import('p-queue').default;
let pQueue: Promise<PQueueClass> | undefined;

/** p-queue, loaded on the first concurrent batch (keeps `import '@skein/core'` fast). */
function loadPQueue(): Promise<PQueueClass> {
  pQueue ??= import('p-queue').then((m) => m.default);
  return pQueue;
}

async function tryHandoff(
  host: LoopHost,
  inv: Invocation,
  use: ToolUse,
  offered: OfferedTools,
  invalidInput: string | undefined,
): Promise<{ result: ToolResult; handoff: HandoffRequest | undefined }> {
  const h = offered.handoffs?.get(use.name);
  const started = performance.now();
  const fail = (text: string): { result: ToolResult; handoff: undefined } => {
    inv.metrics.recordTool(use.name, false, performance.now() - started);
    return { result: errorToolResult(use.toolUseId, text), handoff: undefined };
  };
  if (!h) return fail(`Unknown handoff: ${use.name}.`);
  if (invalidInput !== undefined)
    return fail(`The input of ${use.name} was not valid JSON (${invalidInput}); no transfer was made.`);
  let input: unknown = use.input;
  if (h.inputSchema) {
    const parsed = h.inputSchema.safeParse(use.input);
    if (!parsed.success)
      return fail(
        `Invalid input for ${use.name}: ${formatIssues(parsed.error.issues)}. No transfer was made; call it again with valid input.`,
      );
    input = parsed.data;
  }
  try {
    await h.onHandoff({ agent: host.agent, invocationState: inv.invocationState }, input);
  } catch (e) {
    return fail(`The handoff to ${h.agent.name} failed in onHandoff: ${errorMessage(e)}. No transfer was made.`);
  }
  inv.metrics.recordTool(use.name, true, performance.now() - started);
  return {
    result: { toolUseId: use.toolUseId, status: 'success', content: [{ json: { assistant: h.agent.name } }] },
    handoff: { handoff: h, target: h.agent, input, toolUseId: use.toolUseId },
  };
}
