import type { GraphShape } from '../view/run-types.js';

/** Where each node sits, in px, and the canvas size. */
export interface GraphLayout {
  width: number;
  height: number;
  nodes: Record<string, { x: number; y: number }>;
}

const COLUMN = 190;
const ROW = 64;
const MARGIN = 24;

/**
 * A layered layout: each node's column is its shortest distance from an entry point (nodes no entry
 * reaches go to a last column), rows in insertion order within a column. Deterministic; cycles are fine.
 */
export function layoutGraph(shape: GraphShape): GraphLayout {
  const next = new Map<string, string[]>();
  for (const e of shape.edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const level = new Map<string, number>();
  let frontier = shape.entryPoints.length > 0 ? [...shape.entryPoints] : shape.nodes.slice(0, 1);
  for (const n of frontier) level.set(n, 0);
  while (frontier.length > 0) {
    const after: string[] = [];
    for (const n of frontier) {
      for (const m of next.get(n) ?? []) {
        if (level.has(m)) continue;
        level.set(m, (level.get(n) ?? 0) + 1);
        after.push(m);
      }
    }
    frontier = after;
  }
  const deepest = Math.max(-1, ...level.values());
  const columns: string[][] = [];
  for (const n of shape.nodes) {
    const col = level.get(n) ?? deepest + 1;
    (columns[col] ??= []).push(n);
  }
  const nodes: GraphLayout['nodes'] = {};
  let rows = 1;
  columns.forEach((col, c) => {
    rows = Math.max(rows, col.length);
    col.forEach((n, r) => (nodes[n] = { x: MARGIN + c * COLUMN, y: MARGIN + r * ROW }));
  });
  return { width: MARGIN * 2 + Math.max(1, columns.length) * COLUMN, height: MARGIN * 2 + rows * ROW, nodes };
}
