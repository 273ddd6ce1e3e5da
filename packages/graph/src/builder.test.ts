import { Agent, ConfigurationError, InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from './index.js';

const agent = (name: string, script: string[] = ['ok']): Agent => new Agent({ name, model: new ScriptedModel(script) });

describe('GraphBuilder', () => {
  it('refuses a cycle without a limit and names the limit to set', () => {
    const b = new GraphBuilder()
      .addNode(agent('a'))
      .addNode(agent('b'))
      .addEdge('a', 'b')
      .addEdge('b', 'a')
      .setEntryPoint('a');
    expect(() => b.build()).toThrow(ConfigurationError);
    expect(() => b.build()).toThrow(/cycle \(a -> b -> a\).*setMaxNodeExecutions/);
    expect(() => b.setMaxNodeExecutions(5).build()).not.toThrow();
  });

  it('accepts an execution timeout as the limit of a cycle', () => {
    const b = new GraphBuilder().addNode(agent('a')).addEdge('a', 'a').setEntryPoint('a').setExecutionTimeout(1000);
    expect(b.build().entryPoints).toEqual(['a']);
  });

  it('defaults entry points to the nodes without incoming edges, in insertion order', () => {
    const g = new GraphBuilder().addNode(agent('x')).addNode(agent('a')).addNode(agent('b')).addEdge('a', 'x').build();
    expect(g.entryPoints).toEqual(['a', 'b']);
  });

  it('asks for an entry point when every node has an incoming edge', () => {
    const b = new GraphBuilder().addNode(agent('a')).addEdge('a', 'a').setMaxNodeExecutions(3);
    expect(() => b.build()).toThrow(/setEntryPoint/);
  });

  it('refuses agents that hold their own session manager', () => {
    const sessionManager = new RepositorySessionManager({
      sessionId: 's',
      repository: new InMemorySessionRepository(),
    });
    const owned = new Agent({ name: 'owned', model: new ScriptedModel(['x']), sessionManager });
    expect(() => new GraphBuilder().addNode(owned)).toThrow(/give the session manager to the Graph/);
  });

  it('refuses unknown nodes, duplicate ids, the same agent twice and bad options', () => {
    const a = agent('a');
    expect(() => new GraphBuilder().addNode(a).addEdge('a', 'nope')).toThrow(
      /node "nope", which is not in the graph.*addNode\(\)/,
    );
    expect(() => new GraphBuilder().addNode(a).addNode(agent('a'))).toThrow(/already has a node "a"/);
    expect(() => new GraphBuilder().addNode(a).addNode(a, 'again')).toThrow(/same agent is already node "a"/);
    expect(() => new GraphBuilder().setMaxConcurrency(0)).toThrow(/integer >= 1/);
    expect(() => new GraphBuilder().setNodeTimeout(-1)).toThrow(/ms > 0/);
    expect(() => new GraphBuilder().build()).toThrow(/no nodes/);
    expect(() => new GraphBuilder().addNode({} as Agent)).toThrow(/Agent or an orchestrator/);
  });

  it('checks node ids against the session id rules when a session manager is set', () => {
    const sm = new RepositorySessionManager({ sessionId: 's', repository: new InMemorySessionRepository() });
    expect(() => new GraphBuilder().addNode(agent('a'), 'bad id').setSessionManager(sm).build()).toThrow(
      /Invalid node id "bad id"/,
    );
  });

  it('draws the graph as Mermaid', () => {
    const isBilling = (): boolean => true;
    const g = new GraphBuilder()
      .addNode(agent('triage'))
      .addNode(agent('billing'))
      .addNode(agent('refund'))
      .addNode(agent('done'))
      .addEdge('triage', 'billing', isBilling)
      .addEdge('triage', 'refund')
      .addEdge(['billing', 'refund'], 'done')
      .build();
    expect(g.toMermaid()).toBe(
      [
        'flowchart TD',
        '  n0["triage"]',
        '  n1["billing"]',
        '  n2["refund"]',
        '  n3["done"]',
        '  n0 -->|isBilling| n1',
        '  n0 --> n2',
        '  n1 & n2 -->|join| n3',
        '  classDef entry stroke-width:3px',
        '  class n0 entry',
      ].join('\n'),
    );
  });
});
