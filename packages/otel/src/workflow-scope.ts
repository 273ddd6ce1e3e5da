import type { Telemetry } from './options.js';
import type { Orchestrator } from './walk.js';

/** What every span and metric of one instrumented Graph or Swarm needs. */
export interface WorkflowScope {
  readonly o: Orchestrator;
  readonly t: Telemetry;
  /** Root runs get a trace id from their start transition; resumed runs link to it (see run-anchor.ts). */
  readonly linkResumedRuns: boolean;
  /** What each node id runs (an agent or an orchestrator), whose runs nest under the node's span. */
  readonly targets: ReadonlyMap<string, object>;
  /** The orchestrator's kind (`graph`, `swarm`), from its class name. */
  readonly kind: string;
}
