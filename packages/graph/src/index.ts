export { GraphBuilder } from './graph-builder.js';
export { Graph } from './graph.js';
export type { EdgeCondition, GraphEdge, GraphNode, GraphNodeTarget, GraphResult, GraphState } from './graph-types.js';
export type { GraphForkEdit } from './fork-edit.js';
export type { GraphFork, GraphForkOptions, GraphHistoryStep, GraphStepState } from './graph-journal.js';
