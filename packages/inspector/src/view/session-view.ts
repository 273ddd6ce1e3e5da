import type { RunTokens } from './run-tokens.js';
import type { StepView } from './steps-view.js';
import type { JsonObject, Message, NodeTransition } from '@skein/core';

/** Something that could not be read, shown in place of what it should have been. */
export interface Problem {
  /** What it is: `agent triage, message 3`, `multi_agent.json of support`. */
  where: string;
  message: string;
}

/** One stored message, or the problem that stands in its place. */
export interface MessageView {
  id: number;
  message?: Message;
  /** True when the stored message has a redacted replacement (shown instead). */
  redacted: boolean;
  problem?: string;
}

/** A stored agent: its record and its conversation. */
export interface AgentView {
  id: string;
  state?: JsonObject;
  conversationManagerState?: JsonObject;
  updatedAt?: string;
  /** The conversation, when it was asked for (empty otherwise). */
  messages: MessageView[];
  problems: Problem[];
}

/** A stored orchestrator (graph, swarm, or one written by Strands Agents). */
export interface OrchestratorView {
  id: string;
  /** `graph`, `swarm`, ... as stored. */
  type: string;
  /** The run's status: `executing`, `interrupted`, `completed`, `failed`, or `unknown`. */
  status: string;
  state: JsonObject;
  /** Node entries by id (results, and a swarm's task and turns). */
  nodes: Record<string, JsonObject>;
  transitions: NodeTransition[];
  /** The current run's kept steps, oldest first (empty without history; absent when not loaded). */
  steps?: StepView[];
  /** The current run's tokens (see `run-tokens.ts`), when known. */
  tokens?: RunTokens;
  /** The run document kept beside the orchestrator's record (`<id>@run`: a graph's shape, a swarm's members), when stored. */
  runDocument?: JsonObject;
  updatedAt?: string;
  /** True when the document is in Strands Agents' format (read as far as it is understood). */
  strands: boolean;
  problems: Problem[];
}

/** Everything stored in one session. */
export interface SessionView {
  id: string;
  type: string;
  createdAt?: string;
  updatedAt?: string;
  agents: AgentView[];
  orchestrators: OrchestratorView[];
  problems: Problem[];
}
