import './node20.js';
export { restateAgent } from './restate-agent.js';
export type { AgentMessage, AgentReply } from './restate-agent.js';
export { restateGraph, restateOrchestrator, restateSwarm } from './restate-orchestrator.js';
export type { RestateOrchestratorOptions, RunReply } from './restate-orchestrator.js';
export type { SpreadMode } from './spread-nodes.js';
export type { PendingReply, RespondInput } from './answers.js';
export { prepareTree } from './prepare-tree.js';
export { runInScope } from './durable-scope.js';
