import { describe, expect, it } from 'vitest';
import { sideEffectViolations, startedNodes } from './side-effects.js';

// The checker itself must catch what the campaigns look for, or a passing campaign proves nothing.
describe('crash side-log checks', () => {
  it('accepts a node re-run whose completion was not committed before the kill', () => {
    const log = [
      'epoch',
      'null>triage:start',
      'start triage',
      'triage>audit:edge',
      'start audit',
      'tool audit a-1',
      'epoch',
      'start audit',
      'tool audit a-1',
      'audit>report:join',
    ];
    expect(sideEffectViolations(log, false)).toEqual([]);
    expect(startedNodes(log)).toEqual(['audit', 'triage']);
  });

  it('flags a committed node that starts again, and its repeated tool side effect', () => {
    const log = [
      'epoch',
      'start audit',
      'tool audit a-1',
      'audit>report:join',
      'epoch',
      'start audit',
      'tool audit a-1',
    ];
    expect(sideEffectViolations(log, false)).toEqual([
      'audit started again in process 2 after its completion was committed in process 1',
      'tool a-1 of audit ran again in process 2 after it was committed in process 1',
    ]);
  });

  it('flags a tool run twice in one process', () => {
    expect(sideEffectViolations(['epoch', 'tool desk d-0', 'tool desk d-0'], true)).toEqual([
      'tool d-0 of desk ran twice in process 1',
    ]);
  });

  it('flags an agent tool that runs again after its toolResult was stored', () => {
    const log = ['epoch', 'tool desk d-0', 'message user toolResult d-0', 'epoch', 'tool desk d-0'];
    expect(sideEffectViolations(log, true)).toEqual([
      'tool d-0 of desk ran again in process 2 after it was committed in process 1',
    ]);
    expect(
      sideEffectViolations(['epoch', 'tool desk d-0', 'epoch', 'tool desk d-0', 'message user toolResult d-0'], true),
    ).toEqual([]);
  });

  it('flags a tool that runs again after a budget stop committed it, but not one re-run after a kill', () => {
    const killed = ['epoch', 'start refund', 'tool refund r-1', 'epoch', 'start refund', 'tool refund r-1'];
    expect(sideEffectViolations(killed, false)).toEqual([]);
    const stopped = [...killed, 'refund>null:budget', 'stopped', 'epoch', 'tool refund r-1'];
    expect(sideEffectViolations(stopped, false)).toEqual([
      'tool r-1 of refund ran again in process 3 after a budget stop in process 2',
    ]);
    // Cut by a kill in process 1, not run by the stopped process 2 (the budget stopped first): it runs in 3.
    const notRunByTheStop = ['epoch', 'tool notify n-1', 'epoch', 'stopped', 'epoch', 'tool notify n-1'];
    expect(sideEffectViolations(notRunByTheStop, false)).toEqual([]);
  });

  it('flags a refund paid twice, whatever the processes', () => {
    const log = ['epoch', 'pay refund 42', 'epoch', 'tool refund r-1', 'pay refund 42'];
    expect(sideEffectViolations(log, false)).toEqual(['refund 42 paid twice']);
    expect(sideEffectViolations(['epoch', 'pay refund 42', 'epoch', 'pay refund 43'], false)).toEqual([]);
  });
});
