import { describe, expect, it } from 'vitest';
import { runTokens, tokensAlong } from './run-tokens.js';

describe("a run's tokens", () => {
  it('add up what the budget counted from step to step, also across a process that resumed with a budget of its own', () => {
    // A refund paused for approval (0 -> 60), answered in a new process whose budget starts at 0 (0 -> 30).
    expect(tokensAlong([0, 15, 45, 60, 60, 0, 15, 30, 30])).toEqual([0, 15, 45, 60, 60, 60, 75, 90, 90]);
    // A budget shared by a conversation's turns: the second run starts where the first left it.
    expect(tokensAlong([90, 105, 135, 180])).toEqual([0, 15, 45, 90]);
    expect(runTokens([90, 105, 135, 180], {})).toEqual({ tokens: 90, counted: 'budget' });
  });

  it('without a budget, count what the nodes stored results hold, and say so', () => {
    expect(runTokens([undefined, undefined], { usage: { totalTokens: 60 } })).toEqual({
      tokens: 60,
      counted: 'results',
    });
    expect(runTokens([], {})).toBeUndefined();
  });
});
