import type { Agent } from '../agent/agent.js';
import type { PendingTurn } from './pending-turn.js';

/** How session persistence reads and restores an agent's pending turn (kept off the public API). */
export interface PendingSlot {
  get(): PendingTurn | undefined;
  set(turn: PendingTurn | undefined): void;
}

const slots = new WeakMap<Agent, PendingSlot>();

/** Called once by each Agent's constructor. */
export function registerPendingSlot(agent: Agent, slot: PendingSlot): void {
  slots.set(agent, slot);
}

/** The agent's turn waiting for answers, if any. */
export function pendingTurnOf(agent: Agent): PendingTurn | undefined {
  return slots.get(agent)?.get();
}

/** Restores (or clears) the agent's turn waiting for answers. */
export function setPendingTurn(agent: Agent, turn: PendingTurn | undefined): void {
  slots.get(agent)?.set(turn);
}
