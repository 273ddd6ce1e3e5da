import { describe, expect, it } from 'vitest';
import type { DeskMessage, DeskPart } from './desk-message.js';
import { liveStory } from './live-story.js';
import { storyFromView } from './stored-story.js';

const speaker = (path: string[]): DeskPart => ({ type: 'data-skein-speaker', data: { path } }) as DeskPart;
const text = (t: string): DeskPart => ({ type: 'text', text: t }) as DeskPart;
const user = (t: string): DeskMessage => ({ id: 'u', role: 'user', parts: [text(t)] });
const desk = (parts: DeskPart[]): DeskMessage => ({ id: 'a', role: 'assistant', parts });
const trip = {
  guardrail: 'own-orders',
  where: 'tool',
  reason: 'order 108 is not an order of customer aiko',
  path: 'refund',
};
const BLOCKED = 'The desk blocked an action: order 108 is not an order of customer aiko [own-orders (refund)]';

describe('guardrails on the customer page', () => {
  it('a blocked turn is one line saying what was blocked and why; its result adds no problem', () => {
    const parts = [
      { type: 'data-skein-guardrail', data: { ...trip, tool: 'issue_refund', speaker: ['refund'] } },
      {
        type: 'data-skein-result',
        data: { turn: 1, status: 'blocked', failureReason: 'Guardrail own-orders blocked' },
      },
    ] as DeskPart[];
    const [story] = liveStory([], [user('Please refund order 108'), desk(parts)], 'graph');
    expect(story).toMatchObject({ blocked: BLOCKED, problem: '', answer: '' });
  });

  it('a page opened again tells the same blocked line from the stored turn', () => {
    const view = {
      status: 'blocked',
      turns: [{ turn: 1, status: 'blocked', prompt: 'Please refund order 108', guardrail: trip }],
      interrupts: [],
    };
    expect(storyFromView(view)[0]).toMatchObject({ blocked: BLOCKED, problem: '' });
  });

  it('a text a guardrail retracted in a graph or swarm leaves the page; other speakers keep theirs', () => {
    const parts = [
      speaker(['triage']),
      text('ROUTE: refund'),
      speaker(['refund']),
      text('I will refund order 108 right now'),
      { type: 'data-skein-retract', data: { path: ['refund'], part: 't3', guardrail: 'policy', action: 'block' } },
    ] as DeskPart[];
    const [story] = liveStory([], [user('refund 108'), desk(parts)], 'graph');
    const said = JSON.stringify(story);
    expect(said).not.toContain('I will refund order 108');
    expect(story?.details.find((b) => b.who === 'triage')).toBeDefined();
  });
});
