/**
 * The events the server sends to HTTP clients (SSE `event:` is the `type`, `data:` the JSON). Core's
 * agent and orchestrator events, flattened: `path` says who speaks (`[]` the agent or orchestrator
 * itself, `['billing']` a graph node, `['desk', 'refund']` a member of a nested swarm). Plus the
 * server's own: `turnStart`, `turnEnd`, `resumed`, `gap`, `serverStopping`.
 */
import type {
  BudgetWarning,
  GuardrailTrip,
  Interrupt,
  JsonValue,
  Message,
  NodeTransition,
  ToolResult,
  ToolUse,
} from '@skein/core';
import type { TurnResult } from '../runs/turn-result.js';

/** Who an event comes from: node ids from the outermost orchestrator in. */
export type SpeakerPath = readonly string[];

/**
 * One event of a turn as HTTP clients receive it. `nested: true`: it comes from an agent used as a
 * tool (`asTool`), whose name ends `path` (`['refund']`: the `refund` agent the turn's agent calls).
 */
export type ServerEvent = ServerEventData & { nested?: true };

/** A {@link ServerEvent} without the `nested` mark. */
type ServerEventData =
  | {
      type: 'turnStart';
      turn: number;
      attempt: number;
      resumed: boolean;
      /** The turn answers interrupts (it goes on with the paused run). */
      answering: boolean;
      kind: string;
      name: string;
    }
  | { type: 'textDelta'; path: SpeakerPath; data: string }
  | { type: 'reasoningDelta'; path: SpeakerPath; data: string }
  | { type: 'toolStart'; path: SpeakerPath; toolUse: ToolUse }
  | { type: 'toolResult'; path: SpeakerPath; toolResult: ToolResult }
  | { type: 'messageAdded'; path: SpeakerPath; message: Message }
  | {
      type: 'modelRetry';
      path: SpeakerPath;
      attempt: number;
      delayMs: number;
      error: string;
      discardedPartialAnswer: boolean;
    }
  | { type: 'interrupt'; path: SpeakerPath; interrupts: Interrupt[] }
  | { type: 'budgetWarning'; path: SpeakerPath; warning: BudgetWarning }
  /** A model behind `fallback` or `route` answered, failed (`error`, its message) or was skipped by its circuit breaker. */
  | {
      type: 'modelAttempt';
      path: SpeakerPath;
      modelId: string;
      outcome: 'answered' | 'failed' | 'skipped';
      error?: string;
      startedAt: number;
      durationMs: number;
    }
  /** Something works worse than it could; `code` says what (`cache_prefix_rewritten`). */
  | { type: 'warning'; path: SpeakerPath; code: string; message: string }
  | { type: 'nodeStart'; path: SpeakerPath; nodeId: string }
  | {
      type: 'nodeStop';
      path: SpeakerPath;
      nodeId: string;
      status: string;
      text: string;
      error?: string;
      executionTimeMs: number;
    }
  | { type: 'transition'; path: SpeakerPath; transition: NodeTransition }
  /** A guardrail blocked the turn (the turn ends `blocked`); nothing it blocked was sent. */
  | { type: 'guardrailTripped'; path: SpeakerPath; trip: GuardrailTrip }
  /** An output guardrail asked the model for another answer. */
  | {
      type: 'guardrailRetry';
      path: SpeakerPath;
      guardrail: string;
      feedback: string;
      attempt: number;
    }
  /** Drop the text this speaker's current answer streamed (a guardrail blocked, retried or rewrote it; a rewrite's text follows). */
  | {
      type: 'textRetracted';
      path: SpeakerPath;
      guardrail: string;
      action: 'block' | 'retry' | 'rewrite';
    }
  | { type: 'turnEnd'; result: TurnResult }
  /** A re-join after a restart: the events before it were not kept; the run resumed from its store. */
  | { type: 'resumed'; turn: number; attempt: number; detail: string }
  /** A re-join asked for events no longer kept; what follows starts later. */
  | { type: 'gap'; detail: string }
  | { type: 'serverStopping'; detail: string };

/** The `type`s of {@link ServerEvent}. */
export type ServerEventType = ServerEvent['type'];

/** An event with its id, as stored in a turn's event log. */
export interface LoggedEvent {
  /** `<turn>.<attempt>.<seq>`: what the client sends back in `Last-Event-ID`. */
  readonly id: string;
  readonly seq: number;
  readonly event: ServerEvent;
  /** The SSE frame, made once and shared by every client. */
  readonly frame: string;
}

/** A JSON value of anything an event carries (used where a value is opaque). */
type EventValue = JsonValue;
