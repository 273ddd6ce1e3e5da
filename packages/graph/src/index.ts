export { GraphBuilder } from './graph-builder.js';
export { Graph } from './graph.js';
export type { EdgeCondition, GraphEdge, GraphNode, GraphNodeTarget, GraphResult, GraphState } from './graph-types.js';
export type { GraphFork, GraphForkOptions } from './graph-fork.js';
export type { GraphForkEdit } from './fork-edit-check.js';
export type { GraphHistoryStep, GraphStepState } from './graph-history.js';
