/**
 * The graph or swarm drawn once (SVG, placed by the inspector's `layoutGraph`), then lit: each node
 * `running`, `waiting` (for a person), `completed`, `failed` or `blocked` (a guardrail tripped there),
 * by a class the style colours and a word in its label (colour is never the only sign); a node's
 * `<title>` says more (which guardrail, and why).
 */
import { layoutGraph } from '@skein/inspector/views';
import type { Shape } from './api.js';

/** How a node stands. */
export type NodeStatus = 'idle' | 'running' | 'waiting' | 'completed' | 'failed' | 'blocked';

const SVG = 'http://www.w3.org/2000/svg';
const W = 140;
const H = 40;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** A drawn graph: `light` a node (with `detail` in its title), `reset` them all. */
export interface GraphView {
  element: SVGSVGElement;
  light(node: string, status: NodeStatus, detail?: string): void;
  reset(): void;
  statusOf(node: string): NodeStatus;
}

/** Draws `shape` (see the module comment). */
export function drawGraph(shape: Shape, title: string): GraphView {
  const layout = layoutGraph(shape);
  const root = svg('svg', { viewBox: `0 0 ${layout.width} ${layout.height}`, role: 'img', class: 'graph' });
  root.setAttribute('aria-label', title);
  const marker = svg('marker', {
    id: 'arrow',
    viewBox: '0 0 10 10',
    refX: 10,
    refY: 5,
    markerWidth: 6,
    markerHeight: 6,
    orient: 'auto',
  });
  marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow' }));
  const defs = svg('defs', {});
  defs.append(marker);
  root.append(defs);
  for (const edge of shape.edges) {
    const a = layout.nodes[edge.from];
    const b = layout.nodes[edge.to];
    if (!a || !b) continue;
    const back = b.x <= a.x;
    const line = svg('path', {
      d: back
        ? `M${a.x + W / 2},${a.y + H} C${a.x + W / 2},${a.y + H + 30} ${b.x + W / 2},${b.y + H + 30} ${b.x + W / 2},${b.y + H}`
        : `M${a.x + W},${a.y + H / 2} L${b.x},${b.y + H / 2}`,
      class: `edge${edge.conditional ? ' conditional' : ''}`,
      'marker-end': 'url(#arrow)',
    });
    root.append(line);
  }
  const statuses = new Map<string, NodeStatus>();
  const groups = new Map<string, { group: SVGGElement; state: SVGTextElement; title: SVGTitleElement }>();
  for (const node of shape.nodes) {
    const at = layout.nodes[node];
    if (!at) continue;
    const group = svg('g', { class: 'node idle', 'data-node': node });
    const title = svg('title', {});
    title.textContent = node;
    group.append(title);
    group.append(svg('rect', { x: at.x, y: at.y, width: W, height: H, rx: 6 }));
    const name = svg('text', { x: at.x + 10, y: at.y + 17, class: 'name' });
    name.textContent = node;
    const state = svg('text', { x: at.x + 10, y: at.y + 33, class: 'state' });
    group.append(name, state);
    root.append(group);
    groups.set(node, { group, state, title });
  }
  const light = (node: string, status: NodeStatus, detail?: string): void => {
    const drawn = groups.get(node);
    if (!drawn) return;
    statuses.set(node, status);
    drawn.group.setAttribute('class', `node ${status}`);
    drawn.state.textContent = status === 'idle' ? '' : status;
    drawn.title.textContent = detail ? `${node}: ${detail}` : node;
  };
  return {
    element: root,
    light,
    reset: () => {
      for (const node of groups.keys()) light(node, 'idle');
    },
    statusOf: (node) => statuses.get(node) ?? 'idle',
  };
}
