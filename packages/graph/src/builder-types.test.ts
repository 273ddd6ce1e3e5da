import { describe, expect, it } from 'vitest';
import { Agent, ConfigurationError } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from './index.js';

// Found by the bad-input fuzz (test/reliability): these were a TypeError ("from is not iterable") or
// taken as they were.

const writer = (): Agent => new Agent({ name: 'writer', model: new ScriptedModel(['ok']) });

describe('GraphBuilder with arguments of wrong types', () => {
  it('addEdge from a number is a ConfigurationError naming addEdge', () => {
    const builder = new GraphBuilder().addNode(writer(), 'writer');
    expect(() => builder.addEdge(5 as unknown as string, 'writer')).toThrow(ConfigurationError);
    expect(() => builder.addEdge(5 as unknown as string, 'writer')).toThrow(
      /addEdge\(\) takes a source node id or an array of them/,
    );
  });

  it('resetOnRevisit takes only a boolean', () => {
    expect(() => new GraphBuilder().resetOnRevisit('yes' as unknown as boolean)).toThrow(
      /resetOnRevisit\(\) takes true or false \(got string\)/,
    );
    expect(() => new GraphBuilder().resetOnRevisit(false).resetOnRevisit()).not.toThrow();
  });
});
