/**
 * Who sends a request to a door (`@skein/server`'s routes, `@skein/a2a`, MCP, AG-UI): what an
 * `authorize` hook returns. One shape for every door, so one function serves them all.
 */
import type { Interrupt } from '../interrupt/interrupt.js';

/** A principal: a non-empty string id, or an object with one (and anything else the app keeps, such as roles). */
export type Principal = string | { readonly id: string; readonly [key: string]: unknown };

/** The id of a principal. */
export function principalId(principal: Principal): string {
  return typeof principal === 'string' ? principal : principal.id;
}

/** One answer a door is about to accept: who answers which pending interrupt of which conversation. */
export interface AnswerCheck {
  /** Who answers (what `authorize` returned for the request). */
  principal: Principal;
  /** The pending interrupt the answer is for (its `name` is `approval` for a tool's `needsApproval`). */
  interrupt: Interrupt;
  /** The conversation (an A2A task id on the A2A door). */
  conversationId: string;
  /** The door the answer came through: `answers`, `ui`, `a2a`, `mcp` or `agui`. */
  door: string;
}

/**
 * Decides who may answer a pending interrupt (approve a refund, say): `true` lets the answer through,
 * `false` refuses it (403; nothing is stored and nothing runs). Called once per answered interrupt,
 * on the routed request, by every door that can answer one.
 */
export type AuthorizeAnswer = (check: AnswerCheck) => boolean | Promise<boolean>;
