/** What an evaluation runs each case on: a function that builds a fresh Agent, Graph or Swarm. */
import type { Runnable, SessionManager } from '@skein/core';
import type { EvalCase } from '../case/eval-case.js';
import type { AnyResult } from './outcome-of.js';

/** What the target gets for one run of one case. */
export interface TargetContext {
  evalCase: EvalCase;
  /** 0-based repeat index. */
  repeat: number;
  /** The session this run is stored in. */
  sessionId: string;
  /**
   * Give it to the Graph or Swarm you build, or to the standalone Agent: the run is stored, and its
   * page links from the evaluation's. `undefined` when the evaluation stores nothing (`sessions: false`).
   */
  sessionManager: SessionManager | undefined;
  /** Aborted when the evaluation is cancelled. */
  signal: AbortSignal | undefined;
}

/** What runs: an Agent, or an orchestrator (Graph, Swarm, anything implementing `MultiAgentBase`): core's `Runnable`. */
export type { Runnable };

/** A runnable with extras: how to read its answer, and what to clean up after the run. */
export interface TargetRun {
  runnable: Runnable;
  /** The final answer of a turn (default: an agent's text, a swarm's `text`, a graph's last node's text). */
  answer?: (result: AnyResult) => string;
  /** Called after the case's run (temporary data, connections). */
  close?: () => void | Promise<void>;
}

/**
 * Builds what one run of a case runs on. Build everything fresh (agents keep their history), and give
 * `context.sessionManager` to the orchestrator or the standalone agent.
 * @example (ctx) => buildDeskGraph({ sessionManager: ctx.sessionManager, ... })
 */
export type EvalTarget = (context: TargetContext) => Runnable | TargetRun | Promise<Runnable | TargetRun>;

export function isTargetRun(value: Runnable | TargetRun): value is TargetRun {
  return 'runnable' in value;
}
