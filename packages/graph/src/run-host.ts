import type {
  HookRegistry,
  InvocationGuardrails,
  JsonObject,
  MemoryTarget,
  Message,
  MultiAgentBase,
  OrchestratorBudget,
  Principal,
  RunJournal,
} from '@skein/core';
import type { GraphConfig } from './graph-types.js';

/** What a run needs from its graph. */
export interface RunHost {
  config: GraphConfig;
  graph: MultiAgentBase;
  hooks: HookRegistry;
  /** Where the run's steps go (with the graph's session, or numbering transitions only). */
  journal: RunJournal;
  /** Build-time messages and state of each agent node (for `resetOnRevisit`). */
  initial: ReadonlyMap<string, { messages: Message[]; state: JsonObject; conversation: JsonObject }>;
  /** The run's budget (`undefined`: none). */
  budget?: OrchestratorBudget | undefined;
  /** The guardrails an enclosing run handed this one (and its path), and who asked. */
  guardrails?: InvocationGuardrails | undefined;
  principal?: Principal | undefined;
  /** Whose memory the nodes read (`undefined`: none). */
  memory?: MemoryTarget | undefined;
  /** How deep nested runs' events reach the stream (`MultiAgentInvokeOptions.depth`). */
  depth?: number | undefined;
}
