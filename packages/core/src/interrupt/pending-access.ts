import type { PendingTurn } from './pending-turn.js';

/**
 * How session persistence reads and restores an agent's pending turn (kept off the public API). Keyed
 * by the agent object: anything that is not an `Agent` has no pending turn.
 */
export interface PendingAccessor {
  get(agent: object): PendingTurn | undefined;
  set(agent: object, turn: PendingTurn | undefined): void;
}

let accessor: PendingAccessor | undefined;

/** Called once, by the Agent class (one accessor for all agents: nothing per agent). */
export function registerPendingAccessor(access: PendingAccessor): void {
  accessor = access;
}

/** The agent's turn waiting for answers, if any. */
export function pendingTurnOf(agent: object): PendingTurn | undefined {
  return accessor?.get(agent);
}

/** Restores (or clears) the agent's turn waiting for answers. */
export function setPendingTurn(agent: object, turn: PendingTurn | undefined): void {
  accessor?.set(agent, turn);
}
