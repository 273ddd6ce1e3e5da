/**
 * What one run of a case did, as scorers read it: plain JSON (it is stored in the results file, so
 * a resumed evaluation and `compare` read it back without running anything).
 */
import type { BudgetSpend, JsonValue, NodeTransition } from '@skein/core';

/**
 * How the case's run ended: `completed`, `interrupted` (waiting for an answer no script gave),
 * `failed`, `budgetExceeded` (the evaluation's budget stopped it; it runs again on resume),
 * `cancelled`, `error` (the target threw), or an agent's other stop reason.
 */
export type RunStatus = string;

/** One tool call any agent of the run made (agents used as tools included). */
export interface ToolCallRecord {
  /** The agent that called it. */
  agent: string;
  name: string;
  input: JsonValue;
  /** `success`, `error` (failed, denied, invalid, refused), or `pending` (still waiting for an answer). */
  status: 'success' | 'error' | 'pending';
  /** The result's text, cut to 300 characters. */
  output?: string;
}

/** An interrupt the run raised, and the scripted answer it got (none: unanswered). */
export interface InterruptRecord {
  id: string;
  name: string;
  /** The agent or node path that raised it. */
  source: string;
  /** The tool whose call raised it (approvals). */
  tool?: string;
  /** That tool call's input. */
  input?: JsonValue;
  reason: JsonValue;
  answer?: JsonValue;
}

/** One customer turn of the run. */
export interface TurnRun {
  input: string;
  /** The turn's final answer. */
  text: string;
  status: RunStatus;
  /** The orchestrator's transitions for this turn's run (after every resume), when the target is one. */
  transitions?: NodeTransition[];
  failureReason?: string;
}

/** Everything a scorer may read about one run of a case. */
export interface CaseRun {
  caseId: string;
  /** 0-based repeat index. */
  repeat: number;
  /** The session the run was stored in (see the evaluation's `store` to open it). */
  sessionId?: string;
  status: RunStatus;
  /** What went wrong when the target threw (`status: 'error'`) or the run failed. */
  error?: string;
  /** The final answer (the last turn's). */
  text: string;
  /** An agent's structured output, when it produced one. */
  structuredOutput?: JsonValue;
  turns: TurnRun[];
  /** Nodes / members in the order they started, over all turns (an agent: itself, then the agents it used as tools). */
  nodes: string[];
  /** Handoffs over all turns. */
  handoffs: { from: string; to: string }[];
  toolCalls: ToolCallRecord[];
  interrupts: InterruptRecord[];
  /** What the run spent: tokens, model and tool calls, cost (with prices), and its wall time. */
  usage: BudgetSpend;
}
