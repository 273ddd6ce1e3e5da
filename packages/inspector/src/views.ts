/**
 * The inspector's views that run anywhere, a browser too (no Node API): the run tree's lanes folded
 * from a stream and drawn as HTML, and the layered layout of a graph. `@skein/inspector/views`:
 * what `@skein/studio`'s page draws with.
 */
export { RunTreeLanes } from './view/run-tree-lanes.js';
export type { Lane } from './view/run-tree-lanes.js';
export { renderLanesHtml } from './render/lanes-render.js';
export { layoutGraph } from './render/graph-layout.js';
export type { GraphLayout } from './render/graph-layout.js';
export type { GraphShape } from './view/run-types.js';
