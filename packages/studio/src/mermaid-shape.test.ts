import { describe, expect, it } from 'vitest';
import { shapeFromMermaid } from './mermaid-shape.js';

describe('shapeFromMermaid', () => {
  it("reads a graph's nodes, conditional edges, joins and entry point", () => {
    const shape = shapeFromMermaid(
      [
        'flowchart TD',
        '  n0["triage"]',
        '  n1["billing"]',
        '  n2["sum \\"up\\""]',
        '  n0 -->|if| n1',
        '  n0 & n1 -->|join| n2',
        '  n1 --> n2',
        '  classDef entry stroke-width:3px',
        '  class n0 entry',
      ].join('\n'),
    );
    expect(shape).toEqual({
      nodes: ['triage', 'billing', 'sum "up"'],
      edges: [
        { from: 'triage', to: 'billing', conditional: true, join: false },
        { from: 'triage', to: 'sum "up"', conditional: false, join: true },
        { from: 'billing', to: 'sum "up"', conditional: false, join: true },
      ],
      entryPoints: ['triage'],
    });
  });

  it("reads a swarm's handoffs as conditional edges", () => {
    const shape = shapeFromMermaid('flowchart LR\n  n0["a"]\n  n1["b"]\n  n0 -->|transfer_to_b| n1\n  class n0 entry');
    expect(shape.edges).toEqual([{ from: 'a', to: 'b', conditional: true, join: false }]);
    expect(shape.entryPoints).toEqual(['a']);
  });
});
