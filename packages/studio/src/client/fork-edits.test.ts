import { describe, expect, it } from 'vitest';
import { editOf, editPrefill, editTargets, type StepState } from './fork-edits.js';

const state: StepState = {
  results: { triage: { text: 'ROUTE: refund', status: 'completed' } },
  agents: {
    refund: {
      messages: [
        { role: 'user', content: [{ text: 'Refund order 108' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'lookup_order' } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'order 108: 60 EUR' }] } }] },
        { role: 'assistant', content: [{ text: 'Refund of 60 EUR waits for approval.' }] },
      ],
      state: { tier: 'silver' },
    },
  },
  task: 'Refund order 108',
};

describe('fork edits offered on the studio page', () => {
  it('offers what each kind can name at the step, and prefills what the step holds', () => {
    expect(editTargets('results', state, ['triage'])).toEqual([{ id: 'triage', label: 'triage' }]);
    expect(editTargets('toolResults', state, [])).toEqual([{ id: 't1', label: 'refund: lookup_order (t1)' }]);
    expect(editTargets('sharedContext', state, [])).toEqual([]);
    expect(editPrefill('lastMessage', state, 'refund')).toBe('Refund of 60 EUR waits for approval.');
    expect(editPrefill('toolResults', state, 't1')).toBe('order 108: 60 EUR');
    expect(JSON.parse(editPrefill('agentState', state, 'refund'))).toEqual({ tier: 'silver' });
    expect(editPrefill('task', { task: [{ role: 'user', content: [{ text: 'a' }, { text: 'b' }] }] }, '')).toBe('a\nb');
  });

  it("reads a swarm's members like a graph's agents", () => {
    const swarm: StepState = { members: state.agents ?? {}, sharedContext: { triage: { order: 108 } } };
    expect(editTargets('lastMessage', swarm, [])).toEqual([{ id: 'refund', label: 'refund' }]);
    expect(editTargets('sharedContext', swarm, [])).toEqual([{ id: 'triage', label: 'triage' }]);
  });

  it('makes the edit fork() takes, and refuses a JSON value that is not an object', () => {
    expect(editOf('results', 'triage', 'ROUTE: billing')).toEqual({ results: { triage: 'ROUTE: billing' } });
    expect(editOf('toolResults', 't1', 'order 108: 10 EUR')).toEqual({ toolResults: { t1: 'order 108: 10 EUR' } });
    expect(editOf('task', '', 'new task')).toEqual({ task: 'new task' });
    expect(editOf('agentState', 'refund', '{"tier":"gold"}')).toEqual({ agentState: { refund: { tier: 'gold' } } });
    expect(() => editOf('agentState', 'refund', '[1]')).toThrow(/JSON object/);
    expect(() => editOf('sharedContext', 'triage', 'not json')).toThrow(/must be JSON/);
  });
});
