import type { HandoffRequest } from '../agent/handoff.js';
import { formatIssues } from '../tools/format-issues.js';
import { errorToolResult, type ToolResult, type ToolUse } from '../types/messages.js';
import type { Invocation, LoopHost } from './loop-host.js';
import type { OfferedTools } from './model-call.js';
import { errorMessage } from '../errors/error-message.js';
import type { ModelTurn } from './stream-accumulator.js';

/**
 * Runs the transfers of one turn in order, each between its `toolStart` and `toolResult` events: the
 * first valid one is performed, the others get error results. Returns the transfer made, if any.
 */
export async function runTransfers(
  host: LoopHost,
  inv: Invocation,
  turn: ModelTurn,
  uses: readonly ToolUse[],
  offered: OfferedTools,
  transfers: readonly number[],
  results: (ToolResult | null)[],
): Promise<HandoffRequest | undefined> {
  let handoff: HandoffRequest | undefined;
  for (const i of transfers) {
    const use = uses[i] as ToolUse;
    await inv.emit({ type: 'toolStart', toolUse: use });
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
    await inv.emit({ type: 'toolResult', toolResult: result });
  }
  return handoff;
}

/** One transfer: its input checked against the handoff's schema, then its `onHandoff`; a failure is the result the model reads. */
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
