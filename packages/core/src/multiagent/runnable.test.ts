import { describe, expect, it } from 'vitest';
import {
  Agent,
  emptyUsage,
  isAgent,
  isAgentResult,
  isMultiAgent,
  isRunnable,
  runnableKind,
  type MultiAgentBase,
  type MultiAgentResult,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const result: MultiAgentResult = {
  status: 'completed',
  results: {},
  accumulatedUsage: emptyUsage(),
  executionCount: 0,
  executionTimeMs: 0,
  transitions: [],
};

const orchestrator: MultiAgentBase = {
  id: 'desk',
  kind: 'multiAgent',
  invoke: () => Promise.resolve(result),
  stream: async function* () {
    return result;
  },
};

describe('runnableKind: the one place that tells an agent from an orchestrator', () => {
  it('names an Agent and an orchestrator by their kind', () => {
    const agent = new Agent({ model: new ScriptedModel([]) });
    expect(runnableKind(agent)).toBe('agent');
    expect(runnableKind(orchestrator)).toBe('multiAgent');
    expect([isAgent(agent), isMultiAgent(agent), isRunnable(agent)]).toEqual([true, false, true]);
    expect([isAgent(orchestrator), isMultiAgent(orchestrator), isRunnable(orchestrator)]).toEqual([false, true, true]);
    // The agent's kind lives on its prototype: nothing per agent, nothing in a spread or a JSON copy.
    expect(Object.hasOwn(agent, 'kind')).toBe(false);
  });

  it('holds across copies of @skein/core: it reads the kind, not the class', () => {
    const fromAnotherCopy = { kind: 'agent', name: 'other', invoke: () => Promise.resolve() };
    expect(fromAnotherCopy instanceof Agent).toBe(false);
    expect(isAgent(fromAnotherCopy)).toBe(true);
  });

  it('says undefined for anything that does not run: values, handoffs, wrappers that only carry a kind', () => {
    const agent = new Agent({ model: new ScriptedModel([]), handoffs: [new Agent({ model: new ScriptedModel([]) })] });
    for (const value of [undefined, null, 'agent', 42, {}, agent.handoffs[0], { kind: 'agent', agent }]) {
      expect(runnableKind(value)).toBeUndefined();
      expect(isRunnable(value)).toBe(false);
    }
  });

  it("tells an agent's result from an orchestrator's", async () => {
    const agentResult = await new Agent({ model: new ScriptedModel(['hi']) }).invoke('hello');
    expect(isAgentResult(agentResult)).toBe(true);
    expect(isAgentResult(result)).toBe(false);
  });
});
