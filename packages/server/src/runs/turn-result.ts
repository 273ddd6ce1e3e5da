/**
 * What a turn ended with, the same for agents and orchestrators: the JSON answer of a message, the
 * `turnEnd` event, and what the conversation record keeps.
 */
import {
  describeExceeded,
  isAgentResult,
  type AgentResult,
  type Interrupt,
  type MultiAgentResult,
  type Usage,
} from '@skein/core';

/** How a turn ended (`running` while it runs). `stopped`: the server stopped it (SIGTERM); it resumes. */
export type TurnStatus =
  | 'running'
  | 'completed'
  | 'interrupted'
  | 'failed'
  | 'cancelled'
  | 'budgetExceeded'
  | 'stopped';

/** The result of one turn. */
export interface TurnResult {
  conversationId: string;
  turn: number;
  status: TurnStatus;
  /** The final text (an agent's last message; a swarm's final member; a graph's last node). */
  text: string;
  /** What the run waits for (`status: 'interrupted'`). */
  interrupts: Interrupt[];
  /** An agent's stop reason (`end_turn`, `interrupt`, `cancelled`, ...). */
  stopReason?: string;
  /** Why it failed, was cancelled or stopped. */
  failureReason?: string;
  usage?: Usage;
  executionTimeMs?: number;
}

/** Why a run was aborted by the server, which decides how an aborted run's status reads. */
export type AbortCause = 'cancel' | 'stop' | undefined;

function agentStatus(result: AgentResult, cause: AbortCause): TurnStatus {
  if (result.stopReason === 'interrupt') return 'interrupted';
  if (result.stopReason === 'budget_exceeded') return 'budgetExceeded';
  if (result.stopReason === 'cancelled') return cause === 'stop' ? 'stopped' : 'cancelled';
  return 'completed';
}

function multiStatus(result: MultiAgentResult, cause: AbortCause): TurnStatus {
  if (result.status === 'interrupted') {
    if ((result.interrupts?.length ?? 0) > 0) return 'interrupted';
    return cause === 'stop' ? 'stopped' : 'cancelled';
  }
  if (result.status === 'completed' || result.status === 'failed' || result.status === 'budgetExceeded')
    return result.status;
  return 'failed';
}

/** The final text of an orchestrator run: a swarm's `text`, else the last executed node's text. */
function multiText(result: MultiAgentResult): string {
  const own = (result as { text?: unknown }).text;
  if (typeof own === 'string') return own;
  const order = (result as { executionOrder?: unknown }).executionOrder;
  const last = Array.isArray(order) ? order[order.length - 1] : undefined;
  return typeof last === 'string' ? (result.results[last]?.text ?? '') : '';
}

/** Summarizes an agent's or orchestrator's result. */
export function turnResultOf(
  conversationId: string,
  turn: number,
  result: AgentResult | MultiAgentResult,
  cause: AbortCause,
): TurnResult {
  if (isAgentResult(result)) {
    const r = result;
    const status = agentStatus(r, cause);
    return {
      conversationId,
      turn,
      status,
      text: String(r),
      interrupts: [...r.interrupts],
      stopReason: r.stopReason,
      ...(r.budgetExceeded ? { failureReason: describeExceeded(r.budgetExceeded) } : {}),
      usage: { ...r.metrics.usage },
      executionTimeMs: Math.round(r.metrics.durationMs),
    };
  }
  const m = result as MultiAgentResult;
  const status = multiStatus(m, cause);
  return {
    conversationId,
    turn,
    status,
    text: multiText(m),
    interrupts: [...(m.interrupts ?? [])],
    ...(m.failureReason !== undefined ? { failureReason: m.failureReason } : {}),
    usage: { ...m.accumulatedUsage },
    executionTimeMs: Math.round(m.executionTimeMs),
  };
}

/** The result of a turn that threw. */
export function failedTurn(conversationId: string, turn: number, reason: string): TurnResult {
  return { conversationId, turn, status: 'failed', text: '', interrupts: [], failureReason: reason };
}
