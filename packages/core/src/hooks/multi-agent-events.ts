/**
 * Hook events of orchestrators (Graph, Swarm), registered on the orchestrator's `hooks`:
 *
 *   MultiAgentInitializedEvent           once, when the orchestrator has restored its session
 *   BeforeMultiAgentInvocationEvent      a run starts
 *     BeforeNodeCallEvent                a node is about to run; set `cancelNode` to skip it
 *     AfterNodeCallEvent      (rev)      a node finished (or failed, or was cancelled)
 *   AfterMultiAgentInvocationEvent (rev) the run ended
 */
import type { MultiAgentBase, MultiAgentResult, NodeResult } from '../multiagent/multi-agent.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { JsonValue } from '../types/json.js';

/** Base of orchestrator hook events: every event carries the orchestrator. */
export abstract class MultiAgentHookEvent {
  readonly orchestrator: MultiAgentBase;
  constructor(orchestrator: MultiAgentBase) {
    this.orchestrator = orchestrator;
  }
}

/** The orchestrator is ready (its session restored). */
export class MultiAgentInitializedEvent extends MultiAgentHookEvent {}

/** A run starts. */
export class BeforeMultiAgentInvocationEvent extends MultiAgentHookEvent {
  readonly invocationState: InvocationState;
  constructor(orchestrator: MultiAgentBase, invocationState: InvocationState) {
    super(orchestrator);
    this.invocationState = invocationState;
  }
}

/** A run ended. */
export class AfterMultiAgentInvocationEvent extends MultiAgentHookEvent {
  static readonly reverseCallbacks = true;
  readonly invocationState: InvocationState;
  readonly result: MultiAgentResult | undefined;
  constructor(orchestrator: MultiAgentBase, fields: { invocationState: InvocationState; result?: MultiAgentResult }) {
    super(orchestrator);
    this.invocationState = fields.invocationState;
    this.result = fields.result;
  }
}

/** A node is about to run. Writable: `cancelNode` (`true` or a reason) skips it and fails it with that reason. */
export class BeforeNodeCallEvent extends MultiAgentHookEvent {
  readonly nodeId: string;
  readonly invocationState: InvocationState;
  cancelNode: boolean | string = false;
  readonly #interrupt: ((name: string, reason?: JsonValue) => JsonValue) | undefined;
  constructor(
    orchestrator: MultiAgentBase,
    fields: {
      nodeId: string;
      invocationState: InvocationState;
      interrupt?: (name: string, reason?: JsonValue) => JsonValue;
    },
  ) {
    super(orchestrator);
    this.nodeId = fields.nodeId;
    this.invocationState = fields.invocationState;
    this.#interrupt = fields.interrupt;
  }

  /**
   * Asks a person before the node runs: the run pauses (`status: 'interrupted'`) the first time;
   * once resumed with an answer, returns it. Do not catch what it throws.
   */
  interrupt<R extends JsonValue = JsonValue>(name: string, reason?: JsonValue): R {
    if (!this.#interrupt) throw new Error(`${this.orchestrator.id} does not support interrupts before a node runs.`);
    return this.#interrupt(name, reason) as R;
  }
}

/** A node finished. */
export class AfterNodeCallEvent extends MultiAgentHookEvent {
  static readonly reverseCallbacks = true;
  readonly nodeId: string;
  readonly invocationState: InvocationState;
  readonly result: NodeResult;
  constructor(
    orchestrator: MultiAgentBase,
    fields: { nodeId: string; invocationState: InvocationState; result: NodeResult },
  ) {
    super(orchestrator);
    this.nodeId = fields.nodeId;
    this.invocationState = fields.invocationState;
    this.result = fields.result;
  }
}
