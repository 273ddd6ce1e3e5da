/**
 * One token count for a run, everywhere the inspector shows it (`sessions`, `show`, the pages): every
 * model call the run made, input plus output, as the run's budget counted them (`counted: 'budget'`:
 * what its budget had spent at its last step minus what it had spent when the run began; this counts
 * the calls a node made before a pause or a crash, which its stored result no longer holds). A run
 * without a budget, or whose first step is not kept, counts what its nodes' stored results hold
 * (`counted: 'results'`: a node resumed after a pause counts its calls since the resume).
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

/** The run's tokens from its state document and what its budget had counted when it began. */
export function runTokens(state: JsonObject, startTokens: number | undefined): RunTokens | undefined {
  const spent = budgetTokens(state);
  if (spent !== undefined && startTokens !== undefined && spent >= startTokens)
    return { tokens: spent - startTokens, counted: 'budget' };
  const usage = num(obj(state['usage'])?.['totalTokens']);
  return usage === undefined ? undefined : { tokens: usage, counted: 'results' };
}

/** What the current run's budget had counted at its first kept step; `undefined` without a budget or history. */
export async function runStartTokens(
  store: InspectorStore,
  sessionId: string,
  orchestratorId: string,
  state: JsonObject,
): Promise<number | undefined> {
  if (budgetTokens(state) === undefined) return undefined;
  const history = new OrchestratorHistory(store.repository, sessionId, orchestratorId);
  const current = (await history.runs()).find((r) => r.current);
  if (!current) return undefined;
  return budgetTokens((await history.step(current.firstStep)).state);
}
