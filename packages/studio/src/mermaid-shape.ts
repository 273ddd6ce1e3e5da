/**
 * A graph's or swarm's shape from its `toMermaid()` (the one description both give): nodes by their
 * labels, edges (a join's sources each an edge marked `join`; a labelled edge other than a join is
 * conditional: `if`, a handoff), entry points from `class <id> entry`. Pure.
 */
import type { GraphShape } from '@skein/inspector';

const NODE = /^\s*(\w+)\["((?:[^"\\]|\\.)*)"\]\s*$/;
const EDGE = /^\s*([\w\s&]+?)\s*-[-.]+>\s*(?:\|([^|]*)\|\s*)?(\w+)\s*$/;
const ENTRY = /^\s*class\s+([\w,]+)\s+entry\s*$/;

/** The shape a Mermaid flowchart of `toMermaid()` draws. */
export function shapeFromMermaid(mermaid: string): GraphShape {
  const labels = new Map<string, string>();
  const edges: GraphShape['edges'] = [];
  const entryIds: string[] = [];
  const seen = new Set<string>();
  for (const line of mermaid.split('\n')) {
    const node = NODE.exec(line);
    if (node?.[1] && node[2] !== undefined) {
      labels.set(node[1], node[2].replace(/\\(.)/g, '$1'));
      continue;
    }
    const entry = ENTRY.exec(line);
    if (entry?.[1]) {
      entryIds.push(...entry[1].split(','));
      continue;
    }
    const edge = EDGE.exec(line);
    if (!edge?.[1] || !edge[3]) continue;
    const sources = edge[1].split('&').map((s) => s.trim());
    const label = edge[2]?.trim() ?? '';
    for (const from of sources) {
      const key = `${from}>${edge[3]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({
        from,
        to: edge[3],
        conditional: label !== '' && label !== 'join',
        join: label === 'join' || sources.length > 1,
      });
    }
  }
  const name = (id: string): string => labels.get(id) ?? id;
  return {
    nodes: [...labels.values()],
    edges: edges.map((e) => ({ ...e, from: name(e.from), to: name(e.to) })),
    entryPoints: entryIds.map(name),
  };
}
