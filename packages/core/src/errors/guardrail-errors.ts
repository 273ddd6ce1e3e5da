import { SkeinError, type SkeinErrorOptions } from './skein-error.js';

/** Where a guardrail checks: the turn's input, the model's output, or a tool call. */
export type GuardrailWhere = 'input' | 'output' | 'tool';

/** What a tripwire records: which guardrail, where, why (plain JSON: stored with the run and sent to clients). */
export interface GuardrailTrip {
  /** The guardrail's name. */
  guardrail: string;
  /** Its reason (a check that threw or timed out: what happened). */
  reason: string;
  where: GuardrailWhere;
  /** The run-tree path: the agent's name, or the node path in an orchestrator (`desk/refund`). */
  path: string;
  /** The tool, when it fired on a tool call. */
  tool?: string | undefined;
}

/** Options of {@link GuardrailTripped}. */
export interface GuardrailTrippedOptions extends SkeinErrorOptions, GuardrailTrip {
  /** What the run did before the trip (usage, metrics, the orchestrator's node results), when known. */
  result?: unknown;
}

/**
 * A guardrail blocked the turn (a tripwire): `invoke()` and `stream()` reject with it, after the trip
 * was recorded in the history (and the session). Nothing the guardrail blocked is in any result,
 * stored message or event. `path` names where in the run tree it fired.
 */
export class GuardrailTripped extends SkeinError implements GuardrailTrip {
  readonly guardrail: string;
  readonly reason: string;
  readonly where: GuardrailWhere;
  readonly path: string;
  readonly tool: string | undefined;
  /** What the run did before the trip: an `AgentResult` (stop reason `guardrail_tripped`) or an orchestrator's result. */
  result: unknown;

  constructor(options: GuardrailTrippedOptions, message = tripMessage(options)) {
    super(message, options, 'guardrail_tripped');
    this.guardrail = options.guardrail;
    this.reason = options.reason;
    this.where = options.where;
    this.path = options.path;
    this.tool = options.tool;
    this.result = options.result;
  }

  /** The trip as plain JSON. */
  get trip(): GuardrailTrip {
    const { guardrail, reason, where, path, tool } = this;
    return tool === undefined ? { guardrail, reason, where, path } : { guardrail, reason, where, path, tool };
  }

  /** The same trip seen from an enclosing run: `prefix/path` (a node id), with that run's `result`. */
  within(prefix: string, result?: unknown): GuardrailTripped {
    const path = this.path === '' ? prefix : `${prefix}/${this.path}`;
    return new GuardrailTripped({ ...this.trip, path, cause: this.cause, result: result ?? this.result });
  }
}

/** `Guardrail pii blocked the output in desk/refund: a card number`. */
function tripMessage(trip: GuardrailTrip): string {
  const what = trip.where === 'tool' ? `a call of tool ${trip.tool ?? '?'}` : `the ${trip.where}`;
  const at = trip.path === '' ? '' : ` in ${trip.path}`;
  return `Guardrail ${trip.guardrail} blocked ${what}${at}: ${trip.reason}`;
}
