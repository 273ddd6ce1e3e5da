import type { JsonObject } from '../../types/json.js';
import type { OrchestratorHistory } from '../history/history-reader.js';
import type { ForkOrigin, StepSnapshot, StoredStep } from '../history/history-types.js';
import type { ForkPart } from './fork-run.js';

/** What every line of an orchestrator's history says, whatever the orchestrator. */
export interface HistoryLine {
  /** Its number in the session (0, 1, 2... over every run; give it to `stateAt` and `fork`). */
  step: number;
  /** The run it belongs to (1, 2... in the session). */
  run: number;
  /** When it was committed. */
  at: string;
  /** Where the run came from, when it is a fork. */
  forkedFrom?: ForkOrigin;
}

/**
 * An orchestrator's part of its run journal (`L`: what a line of its history says, `S`: what it was at
 * a step, `E`: its fork's edit): small functions of stored data; history, time travel and forks are core's.
 */
export interface RunPart<L, S, E> extends ForkPart<E> {
  /** A line of the history, from a step and the node entries its run wrote up to it (in the order first written). */
  line(step: StoredStep, runNodes: ReadonlyMap<string, JsonObject>): L;
  /** The orchestrator as it stood at a snapshot. */
  stateAt(snapshot: StepSnapshot): S | Promise<S>;
}

/**
 * Every kept step of an orchestrator's runs, oldest first, each made a line by the orchestrator's
 * `line` (from the step and the node entries its run wrote up to it, in the order first written); the steps, their runs and a
 * fork's origin are read here.
 */
export async function historyLines<L>(
  history: OrchestratorHistory,
  line: (step: StoredStep, runNodes: ReadonlyMap<string, JsonObject>) => L,
): Promise<(HistoryLine & L)[]> {
  const runs = await history.runs();
  const out: (HistoryLine & L)[] = [];
  const nodes = new Map<string, JsonObject>();
  let run = -1;
  for (const step of await history.steps()) {
    if (step.run !== run) {
      nodes.clear();
      run = step.run;
    }
    for (const [id, entry] of Object.entries(step.nodes)) nodes.set(id, entry);
    const forkedFrom = runs.find((r) => r.run === step.run && r.firstStep === step.step)?.forkedFrom;
    out.push({
      step: step.step,
      run: step.run,
      at: step.at,
      ...line(step, nodes),
      ...(forkedFrom ? { forkedFrom } : {}),
    });
  }
  return out;
}

/** The orchestrator as it stood at `step`: its numbers, and what the orchestrator's `state` reads of the step's snapshot. */
export async function stateAtStep<S>(
  history: OrchestratorHistory,
  step: number,
  state: (snapshot: StepSnapshot) => S | Promise<S>,
): Promise<HistoryLine & S> {
  const snapshot = await history.at(step);
  const part = await state(snapshot);
  return {
    step: snapshot.step,
    run: snapshot.run,
    at: snapshot.at,
    ...part,
    ...(snapshot.forkedFrom ? { forkedFrom: snapshot.forkedFrom } : {}),
  };
}
