import type { GraphConfig } from './graph-types.js';

/**
 * The graph as a Mermaid flowchart: one box per node (entry points highlighted), an arrow per edge,
 * conditional edges labelled with the condition's name (or `if`), joins drawn as `a & b --> c`.
 */
export function toMermaid(config: Pick<GraphConfig, 'nodes' | 'edges' | 'entryPoints'>): string {
  const ids = new Map<string, string>();
  [...config.nodes.keys()].forEach((id, i) => ids.set(id, `n${i}`));
  const ref = (id: string): string => ids.get(id) ?? id;
  const lines = ['flowchart TD'];
  for (const id of config.nodes.keys()) lines.push(`  ${ref(id)}["${escapeLabel(id)}"]`);
  for (const edge of config.edges) {
    const from = edge.from.map(ref).join(' & ');
    const label = edge.condition ? escapeLabel(edge.condition.name || 'if') : edge.join ? 'join' : '';
    lines.push(label ? `  ${from} -->|${label}| ${ref(edge.to)}` : `  ${from} --> ${ref(edge.to)}`);
  }
  if (config.entryPoints.length > 0) {
    lines.push('  classDef entry stroke-width:3px');
    lines.push(`  class ${config.entryPoints.map(ref).join(',')} entry`);
  }
  return lines.join('\n');
}

function escapeLabel(text: string): string {
  return text.replace(/["|]/g, (c) => (c === '"' ? '#quot;' : '#124;'));
}
