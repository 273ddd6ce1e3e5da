import type {
  Agent,
  BudgetExceeded,
  BudgetScope,
  HookRegistry,
  MultiAgentEventData,
  OrchestratorBudget,
  RunJournal,
  Status,
} from '@skein/core';
import { agentOf, inFlightOf } from './graph-step.js';
import type { GraphConfig } from './graph-types.js';
import type { RunState } from './run-state.js';
import type { Activation } from './schedule.js';

/** A node that moved to `running`. */
export interface StartedNode {
  activation: Activation;
  budget: BudgetScope | undefined;
  continues: boolean;
  /** Its execution number in this run. */
  count: number;
  agent: Agent | undefined;
}

/** What admitting a node reads of its graph (a part of the run's host). */
interface AdmitHost {
  readonly config: GraphConfig;
  readonly hooks: HookRegistry;
  readonly journal: RunJournal;
  readonly budget?: OrchestratorBudget | undefined;
}

/** What admitting a node reads and changes of its run. */
export interface Admission {
  readonly state: RunState;
  readonly host: AdmitHost;
  readonly emit: ((event: MultiAgentEventData) => void) | undefined;
  /** The run stops, or waits for a person: nothing new starts. */
  halting(): boolean;
  /** The budget limit that stopped the run, if any. */
  budgetStop(): BudgetExceeded | undefined;
  /** Records the limit that refused a node (the first one wins). */
  refuse(exceeded: BudgetExceeded | undefined): void;
  halt(status: Status, reason: string): void;
}

/**
 * Starts the waiting node when it may: the run goes on, the execution limit leaves room, and the
 * budget grants a node execution (all checked again after the budget's await). Then, with no await
 * in between, it moves out of `waiting` and into `running` with its count: every state document
 * written from now on, by this node or a sibling, has the node in one of the two, and siblings that
 * start in the same tick see the count. A node a stop left running `continues` where its agent
 * stood: its execution was counted when it started.
 */
export function admit(run: Admission, nodeId: string): StartedNode | undefined | Promise<StartedNode | undefined> {
  const { state, host } = run;
  if (run.halting() || run.budgetStop() || !waitingAt(state, nodeId) || atExecutionLimit(run, nodeId)) return undefined;
  const continues = state.continuing.includes(nodeId);
  // Without a budget nothing is awaited: the node starts in this tick.
  return host.budget ? admitWithBudget(run, nodeId, continues) : start(run, nodeId, continues, undefined);
}

/** Asks the budget for a node execution; a refused node stays waiting (a resume runs it). */
async function admitWithBudget(run: Admission, nodeId: string, continues: boolean): Promise<StartedNode | undefined> {
  const orchestratorBudget = run.host.budget as OrchestratorBudget;
  const budget = await orchestratorBudget.startNode(nodeId, run.host.hooks, run.emit, continues);
  if (!budget) return void run.refuse(orchestratorBudget.exceeded);
  // Others may have settled or started meanwhile.
  if (run.halting() || !waitingAt(run.state, nodeId) || atExecutionLimit(run, nodeId)) return undefined;
  return start(run, nodeId, continues, budget);
}

/** Moves the node from `waiting` to `running` and counts its execution. */
function start(run: Admission, nodeId: string, continues: boolean, budget: BudgetScope | undefined): StartedNode {
  const { state, host } = run;
  const activation = waitingAt(state, nodeId) as Activation;
  const agent = agentOf(host.config, nodeId);
  state.waiting = state.waiting.filter((a) => a !== activation);
  state.running[nodeId] = inFlightOf(activation, agent, host.journal, continues);
  if (continues) state.continuing = state.continuing.filter((id) => id !== nodeId);
  const count = (state.counts[nodeId] = (state.counts[nodeId] ?? 0) + 1);
  state.executionCount++;
  return { activation, budget, continues, count, agent };
}

function waitingAt(state: RunState, nodeId: string): Activation | undefined {
  return state.waiting.find((a) => a.nodeId === nodeId);
}

/** Halts the run when `setMaxNodeExecutions` leaves no room for `nodeId` (checked again after every await before the count is taken). */
function atExecutionLimit(run: Admission, nodeId: string): boolean {
  const max = run.host.config.maxNodeExecutions;
  if (max === undefined || run.state.executionCount < max) return false;
  run.halt(
    'failed',
    `Reached the limit of ${max} node executions (setMaxNodeExecutions) before node ${nodeId} could run.`,
  );
  return true;
}
