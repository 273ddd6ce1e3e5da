import type { AgentHandle } from '../agent/agent-handle.js';
import type { JsonObject } from '../types/json.js';
import { pendingTurnOf, setPendingTurn } from './pending-access.js';
import { pendingTurnFromJson, pendingTurnToJson } from './pending-turn.js';

/**
 * The agent's turn waiting for answers as JSON (`undefined` when nothing waits). For orchestrators
 * that snapshot a node agent when it starts, to put it back exactly if the node must run again.
 */
export function interruptStateOf(agent: AgentHandle): JsonObject | undefined {
  const turn = pendingTurnOf(agent);
  return turn ? pendingTurnToJson(turn) : undefined;
}

/** Puts back (or clears, with `undefined`) what `interruptStateOf` returned. */
export function restoreInterruptState(agent: AgentHandle, state: JsonObject | undefined): void {
  setPendingTurn(agent, state === undefined ? undefined : pendingTurnFromJson(state));
}
