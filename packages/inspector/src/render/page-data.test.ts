import { describe, expect, it } from 'vitest';
import type { SessionView } from '../view/session-view.js';
import { pageData } from './page-data.js';

const session = (texts: string[]): SessionView => ({
  id: 's',
  type: 'AGENT',
  orchestrators: [],
  problems: [],
  agents: [
    {
      id: 'summary',
      problems: [],
      messages: [{ id: 0, redacted: false, message: { role: 'user', content: texts.map((text) => ({ text })) } }],
    },
  ],
});

describe("the page's messages", () => {
  it('show a text the line holds whole as one block, not a heading repeated in a box below it', () => {
    const long = `From refund:\n- ${'refunded 60 EUR. '.repeat(12)}`;
    const [blocks] = pageData(session(['Inputs from previous nodes:\n', long])).conversations.map(
      (c) => c.messages[0]?.blocks,
    );
    expect(blocks?.[0]).toEqual({ short: 'Inputs from previous nodes:', full: 'Inputs from previous nodes:' });
    // A text cut to its line keeps its whole text behind it.
    expect(blocks?.[1]?.short.endsWith('…')).toBe(true);
    expect(blocks?.[1]?.full).toBe(long);
  });
});
