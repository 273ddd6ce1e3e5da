/**
 * One token count for a run, everywhere the inspector shows it (`sessions`, `show`, the pages): every
 * model call the run made, input plus output, as the run's budget counted them (`counted: 'budget'`):
 * what the budget's count grew by from each kept step of the run to the next. This counts the calls a
 * node made before a pause or a crash, which its stored result no longer holds; a process that resumes
 * the run with a budget of its own (which starts again from what it had spent elsewhere) counts on
 * from there. A run without a budget, or without kept steps, counts what its nodes' stored results
 * hold (`counted: 'results'`: a node resumed after a pause counts its calls since the resume).
 */
import { OrchestratorHistory, type JsonObject } from '@skein/core';
import type { InspectorStore } from '../store/inspector-store.js';
import { num, obj } from './json-read.js';

/** A run's tokens and how they were counted. */
export interface RunTokens {
  tokens: number;
  counted: 'budget' | 'results';
}

/** The tokens a state document's budget had counted (a run with a budget stores it), if any. */
export function budgetTokens(state: JsonObject): number | undefined {
  return num(obj(state['budget'])?.['totalTokens']);
}

/** What the nodes' stored results of a state document hold. */
function resultTokens(state: JsonObject): RunTokens | undefined {
  const usage = num(obj(state['usage'])?.['totalTokens']);
  return usage === undefined ? undefined : { tokens: usage, counted: 'results' };
}

/**
 * The run's tokens at each of its steps (oldest first), from the budget's count at each: the sum of
 * its growth from step to step; a count lower than the one before is a new budget (another process
 * resumed the run), counted on from there. `undefined` where a step has no budget.
 */
export function tokensAlong(budgets: readonly (number | undefined)[]): (number | undefined)[] {
  let total = 0;
  let before: number | undefined;
  return budgets.map((count) => {
    if (count === undefined) return undefined;
    if (before !== undefined && count >= before) total += count - before;
    before = count;
    return total;
  });
}

/** A run's tokens from the budget counts of its steps, else from its state document's results. */
export function runTokens(stepBudgets: readonly (number | undefined)[], state: JsonObject): RunTokens | undefined {
  const last = tokensAlong(stepBudgets).at(-1);
  if (stepBudgets.length > 0 && last !== undefined) return { tokens: last, counted: 'budget' };
  return resultTokens(state);
}

/** Reads the current run's kept steps when it has a budget, and counts its tokens. */
export async function readRunTokens(
  store: InspectorStore,
  sessionId: string,
  orchestratorId: string,
  state: JsonObject,
): Promise<RunTokens | undefined> {
  if (budgetTokens(state) === undefined) return resultTokens(state);
  const history = new OrchestratorHistory(store.repository, sessionId, orchestratorId);
  const current = (await history.runs()).find((r) => r.current);
  if (!current) return resultTokens(state);
  const steps = await history.path(current.lastStep);
  return runTokens(
    steps.map((s) => budgetTokens(s.state)),
    state,
  );
}
