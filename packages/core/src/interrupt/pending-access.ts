import type { Agent } from '../agent/agent.js';
import type { JsonObject } from '../types/json.js';
import { pendingTurnFromJson, pendingTurnToJson, type PendingTurn } from './pending-turn.js';

/** How session persistence reads and restores an agent's pending turn (kept off the public API). */
export interface PendingAccessor {
  get(agent: Agent): PendingTurn | undefined;
  set(agent: Agent, turn: PendingTurn | undefined): void;
}

let accessor: PendingAccessor | undefined;

/** Called once, by the Agent class (one accessor for all agents: nothing per agent). */
export function registerPendingAccessor(access: PendingAccessor): void {
  accessor = access;
}

/** The agent's turn waiting for answers, if any. */
export function pendingTurnOf(agent: Agent): PendingTurn | undefined {
  return accessor?.get(agent);
}

/** Restores (or clears) the agent's turn waiting for answers. */
export function setPendingTurn(agent: Agent, turn: PendingTurn | undefined): void {
  accessor?.set(agent, turn);
}

/**
 * The agent's turn waiting for answers as JSON (`undefined` when nothing waits). For orchestrators
 * that snapshot a node agent when it starts, to put it back exactly if the node must run again.
 */
export function interruptStateOf(agent: Agent): JsonObject | undefined {
  const turn = pendingTurnOf(agent);
  return turn ? pendingTurnToJson(turn) : undefined;
}

/** Puts back (or clears, with `undefined`) what `interruptStateOf` returned. */
export function restoreInterruptState(agent: Agent, state: JsonObject | undefined): void {
  setPendingTurn(agent, state === undefined ? undefined : pendingTurnFromJson(state));
}
