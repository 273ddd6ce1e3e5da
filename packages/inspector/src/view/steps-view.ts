import {
  OrchestratorHistory,
  type JsonObject,
  type JsonValue,
  type NodeTransition,
  type StoredStep,
} from '@skein/core';
import type { InspectorStore } from '../store/inspector-store.js';
import { resultView } from './result-view.js';
import type { NodeResultView } from './run-types.js';
import { budgetTokens, runTokens, tokensAlong } from './run-tokens.js';

/** One committed step of an orchestrator run, as the inspector shows it (Graph and Swarm alike). */
export interface StepView {
  step: number;
  run: number;
  at: string;
  status: string;
  /** The transitions the step made. */
  transitions: NodeTransition[];
  /** How many transitions the run had committed with this step (the ones with a smaller `seq`). */
  transitionCount: number;
  running: string[];
  waiting: string[];
  paused: string[];
  /** Nodes that had finished, with their latest status. */
  done: Record<string, string>;
  /** Where each member agent's stored history ended (messages with a smaller id were there). */
  agents: Record<string, number>;
  /** A swarm's committed turns (turn entries with a smaller seq were there). */
  turns?: number;
  /** A swarm's member that runs next. */
  current?: string;
  /** What the run's budget had counted at this step (runs with a budget). */
  budgetTokens?: number;
  /** The run's tokens at this step, counted as its total is (see `run-tokens.ts`). */
  tokens?: number;
  /** The node results this step stored, by node. */
  results: Record<string, NodeResultView>;
  /** Where the run came from, when it is a fork (on its first step). */
  forkedFrom?: JsonObject;
}

const obj = (v: JsonValue | undefined): JsonObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
const keys = (v: JsonValue | undefined): string[] => Object.keys(obj(v) ?? {});

/** The node sets of a state document, whichever orchestrator wrote it (a graph's or a swarm's fields). */
function nodeSets(doc: JsonObject): Pick<StepView, 'running' | 'waiting' | 'paused' | 'turns' | 'current'> {
  const waiting = Array.isArray(doc['waiting'])
    ? [
        ...new Set(
          doc['waiting'].flatMap((a) => (typeof obj(a)?.['nodeId'] === 'string' ? [obj(a)?.['nodeId'] as string] : [])),
        ),
      ]
    : [];
  const current = typeof doc['current'] === 'string' ? doc['current'] : undefined;
  const pausedNode = obj(doc['pause'])?.['node'];
  const paused = [...keys(doc['paused']), ...(typeof pausedNode === 'string' ? [pausedNode] : [])];
  const running =
    current !== undefined
      ? doc['status'] === 'executing' && !paused.includes(current)
        ? [current]
        : []
      : keys(doc['running']);
  return {
    running,
    waiting,
    paused,
    ...(typeof doc['turns'] === 'number' ? { turns: doc['turns'] } : {}),
    ...(current !== undefined ? { current } : {}),
  };
}

/** Reads an orchestrator's kept steps (`which`: the current run's, or every run's), oldest first; `[]` without history. */
export async function loadSteps(
  store: InspectorStore,
  sessionId: string,
  orchestratorId: string,
  which: 'current' | 'all',
): Promise<StepView[]> {
  const history = new OrchestratorHistory(store.repository, sessionId, orchestratorId);
  const runs = await history.runs();
  const chosen = which === 'all' ? runs : runs.filter((r) => r.current);
  const out: StepView[] = [];
  for (const run of chosen) {
    const done: Record<string, string> = {};
    const agents: Record<string, number> = {};
    const path = await history.path(run.lastStep);
    const along = tokensAlong(path.map((s) => budgetTokens(s.state)));
    for (const [i, step] of path.entries()) {
      const results = fold(step, done, agents);
      const tokens = along[i] ?? resultTokensOf(step.state);
      out.push({
        step: step.step,
        run: step.run,
        at: step.at,
        status: String(step.state['status'] ?? 'unknown'),
        transitions: step.transitions,
        transitionCount:
          typeof step.state['transitionCount'] === 'number'
            ? step.state['transitionCount']
            : (step.transitions.at(-1)?.seq ?? -1) + 1,
        ...nodeSets(step.state),
        ...budgetOf(step.state),
        ...(tokens !== undefined ? { tokens } : {}),
        results,
        done: { ...done },
        agents: { ...agents },
        ...(step.step === run.firstStep && run.forkedFrom
          ? { forkedFrom: run.forkedFrom as unknown as JsonObject }
          : {}),
      });
    }
  }
  return out;
}

/** What a step's state document's node results hold (a run without a budget). */
const resultTokensOf = (state: JsonObject): number | undefined => runTokens([], state)?.tokens;

/** `{ budgetTokens }` when the step's state has a budget. */
function budgetOf(state: JsonObject): { budgetTokens?: number } {
  const tokens = budgetTokens(state);
  return tokens === undefined ? {} : { budgetTokens: tokens };
}

/** Adds a step's node results and agent positions to the run's so far; returns the results it stored. */
function fold(
  step: StoredStep,
  done: Record<string, string>,
  agents: Record<string, number>,
): Record<string, NodeResultView> {
  const results: Record<string, NodeResultView> = {};
  for (const [id, entry] of Object.entries(step.nodes)) {
    if (id.startsWith('run.')) continue;
    // A graph entry is { result, order }; a swarm entry is the result itself (keyed by the member's key).
    const result = obj(entry['result']) ?? entry;
    const node = typeof result['nodeId'] === 'string' ? result['nodeId'] : id;
    if (typeof result['status'] === 'string') {
      done[node] = result['status'];
      results[node] = resultView(result);
    }
  }
  for (const [storeId, at] of Object.entries(step.agents)) agents[storeId] = at.nextMessageId;
  return results;
}
