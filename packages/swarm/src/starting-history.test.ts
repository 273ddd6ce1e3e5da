import { Agent, type Message, type ModelRequest } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import type { HandoffInputData } from '@skein/handoffs';
import { describe, expect, it } from 'vitest';
import { Swarm } from './index.js';

// A live run merges only what each turn added onto the history the last member started from; a
// conversation an input filter rebuilt (new message objects) is merged whole. Both must hand every
// member the same history.

const clone = (data: HandoffInputData): HandoffInputData => structuredClone(data);

function ring(filter: ((data: HandoffInputData) => HandoffInputData) | undefined, seen: Message[][]): Swarm {
  const names = ['a', 'b', 'c'];
  let turns = 0;
  const agents = names.map(
    (name) =>
      new Agent({
        name,
        retryStrategy: null,
        model: new ScriptedModel(
          [
            (request: ModelRequest) => {
              seen.push(structuredClone(request.messages) as Message[]);
              const next = names[(names.indexOf(name) + 1) % names.length];
              return ++turns > 7
                ? 'All done.'
                : {
                    text: `${name} passes on`,
                    toolUses: [
                      { name: `transfer_to_${next}`, input: { message: `turn ${turns}`, context: { n: turns } } },
                    ],
                  };
            },
          ],
          { loop: true },
        ),
      }),
  );
  return new Swarm({
    nodes: agents,
    maxHandoffs: 20,
    maxIterations: 20,
    ...(filter ? { handoffInputFilter: filter } : {}),
  });
}

describe('the history each member starts from', () => {
  it('is the same whether it is merged as it grows or whole on every handoff', async () => {
    const grown: Message[][] = [];
    const whole: Message[][] = [];
    const a = await ring(undefined, grown).invoke('Route this');
    const b = await ring(clone, whole).invoke('Route this');
    expect(a.status).toBe('completed');
    expect(b.status).toBe('completed');
    expect(grown).toHaveLength(8);
    expect(grown).toEqual(whole);
    // Each member got the transfer note merged into the tool result that ends the turn before.
    expect(JSON.stringify(grown[7])).toContain('turn 7');
  });
});
