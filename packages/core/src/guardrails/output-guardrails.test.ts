import { describe, expect, it } from 'vitest';
import {
  AfterModelCallEvent,
  Agent,
  GuardrailTripped,
  InMemorySessionRepository,
  RepositorySessionManager,
  messageText,
  type AgentStreamEvent,
  type Guardrail,
  type OutputSubject,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const pass = { action: 'pass' } as const;

const noPromise: Guardrail<OutputSubject> = {
  name: 'policy',
  check: ({ text }) => (/guarantee/i.test(text) ? { action: 'block', reason: 'promises what policy forbids' } : pass),
};

const LONG_OK = 'Thanks for waiting. We looked at your order and it ships on Monday. ';

/** Reads a stream to its end: the events, and the error it ended with (if any). */
async function drain(agent: Agent, prompt: string): Promise<{ events: AgentStreamEvent[]; error: unknown }> {
  const events: AgentStreamEvent[] = [];
  try {
    for await (const e of agent.stream(prompt)) events.push(e);
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

/** What a client shows: text deltas, with retractions applied. */
function shownText(events: AgentStreamEvent[]): string {
  let shown = '';
  let answer = '';
  for (const e of events) {
    if (e.type === 'textDelta') answer += e.data;
    else if (e.type === 'textRetracted') answer = '';
    else if (e.type === 'messageAdded' && e.message.role === 'assistant') {
      shown += answer;
      answer = '';
    }
  }
  return shown + answer;
}

describe('output guardrails', () => {
  it('block a whole answer: no result, no stored message, no event carries it', async () => {
    const repository = new InMemorySessionRepository();
    const sessionManager = new RepositorySessionManager({ sessionId: 's1', repository });
    const agent = new Agent({
      model: new ScriptedModel(['We guarantee a full refund tomorrow.']),
      outputGuardrails: [noPromise],
      sessionManager,
    });
    const heard: AgentStreamEvent[] = [];
    agent.on('messageAdded', (e) => heard.push(e)).on('textDelta', (e) => heard.push(e));
    const afterModel: unknown[] = [];
    agent.hooks.addCallback(AfterModelCallEvent, (e) => void afterModel.push(e.stopResponse ?? e.error));
    const error = await agent.invoke('refund?').catch((e: unknown) => e);
    expect(GuardrailTripped.is(error) && error.trip).toEqual({
      guardrail: 'policy',
      reason: 'promises what policy forbids',
      where: 'output',
      path: 'agent',
    });
    const stored = await repository.listMessages('s1', 'default');
    for (const text of [
      JSON.stringify(agent.messages),
      JSON.stringify(stored),
      JSON.stringify(heard),
      JSON.stringify(afterModel),
    ])
      expect(text).not.toContain('guarantee a full refund');
    expect(stored.map((m) => m.message.role)).toEqual(['user', 'assistant']);
    expect(messageText(stored[1]?.message)).toContain('guardrail policy blocked the answer');
    expect(GuardrailTripped.is(afterModel[0])).toBe(true);
  });

  it('check a streamed answer window by window: a blocked window is never shown, what was shown is retracted', async () => {
    const text = `${LONG_OK}${LONG_OK}${LONG_OK}We guarantee it arrives. More text follows here.`;
    const agent = new Agent({
      model: new ScriptedModel([text]),
      outputGuardrails: [noPromise],
      guardrailOptions: { windowChars: 40 },
    });
    const { events, error } = await drain(agent, 'when?');
    expect(GuardrailTripped.is(error)).toBe(true);
    const deltas = events.filter((e) => e.type === 'textDelta').map((e) => (e as { data: string }).data);
    expect(deltas.length).toBeGreaterThan(1); // earlier windows were shown as they came
    expect(deltas.join('')).not.toMatch(/guarantee/);
    expect(events.map((e) => e.type).slice(-2)).toEqual(['textRetracted', 'guardrailTripped']);
    expect(shownText(events)).toBe('');
    expect(JSON.stringify(events)).not.toMatch(/guarantee/); // no raw model event carries it either
  });

  it('check each window once and the whole answer once: one sync check per window', async () => {
    const subjects: OutputSubject[] = [];
    const spy: Guardrail<OutputSubject> = { name: 'spy', check: (s) => (subjects.push(s), pass) };
    const text = `${LONG_OK}${LONG_OK}${LONG_OK}`;
    const agent = new Agent({
      model: new ScriptedModel([text]),
      outputGuardrails: [spy],
      guardrailOptions: { windowChars: 60 },
    });
    const { events } = await drain(agent, 'go');
    const windows = subjects.filter((s) => !s.final);
    expect(windows.length).toBeGreaterThanOrEqual(2);
    expect(windows.map((w) => w.text).join('')).toBe(text.slice(0, windows.map((w) => w.text).join('').length));
    expect(subjects.filter((s) => s.final)).toEqual([{ text, final: true }]);
    expect(shownText(events)).toBe(text);
  });

  it('rewrite a window before it is shown, and the stored answer alike', async () => {
    const redact: Guardrail<OutputSubject> = {
      name: 'redact',
      check: ({ text }) =>
        text.includes('4111') ? { action: 'rewrite', text: text.replace(/4111 ?/g, '[card] ') } : pass,
    };
    const text = `${LONG_OK}Your card 4111 was charged. ${LONG_OK}`;
    const agent = new Agent({
      model: new ScriptedModel([text]),
      outputGuardrails: [redact],
      guardrailOptions: { windowChars: 30 },
    });
    const { events, error } = await drain(agent, 'go');
    expect(error).toBeUndefined();
    expect(JSON.stringify(events)).not.toContain('4111');
    expect(shownText(events)).toBe(messageText(agent.messages[1]));
    expect(messageText(agent.messages[1])).toContain('Your card [card] was charged.');
  });

  it('rewrite a whole answer: the result and history hold the rewrite; a stream retracts and shows it', async () => {
    const sign: Guardrail<OutputSubject> = {
      name: 'sign',
      check: ({ text, final }) => (final ? { action: 'rewrite', text: `${text} — the desk` } : pass),
    };
    const quiet = new Agent({ model: new ScriptedModel(['Hello there.']), outputGuardrails: [sign] });
    expect(String(await quiet.invoke('hi'))).toBe('Hello there. — the desk');
    const streamed = new Agent({
      model: new ScriptedModel([`${LONG_OK}${LONG_OK}`]),
      outputGuardrails: [sign],
      guardrailOptions: { windowChars: 30 },
    });
    const { events } = await drain(streamed, 'hi');
    expect(events.some((e) => e.type === 'textRetracted' && e.action === 'rewrite')).toBe(true);
    expect(shownText(events)).toBe(`${LONG_OK}${LONG_OK} — the desk`);
    expect(messageText(streamed.messages[1])).toBe(`${LONG_OK}${LONG_OK} — the desk`);
  });

  it('retry: the model is asked again with the feedback, which is never stored', async () => {
    const model = new ScriptedModel(['We guarantee it.', 'It should arrive by Monday.']);
    const soft: Guardrail<OutputSubject> = {
      name: 'policy',
      check: ({ text }) => (text.includes('guarantee') ? { action: 'retry', feedback: 'Do not promise.' } : pass),
    };
    const agent = new Agent({ model, outputGuardrails: [soft] });
    const { events, error } = await drain(agent, 'when?');
    expect(error).toBeUndefined();
    expect(model.callCount).toBe(2);
    expect(messageText(model.requests[1]?.messages.at(-1))).toContain(
      'Guardrail policy rejected your previous answer: Do not promise.',
    );
    expect(agent.messages.map(messageText)).toEqual(['when?', 'It should arrive by Monday.']);
    expect(events.find((e) => e.type === 'guardrailRetry')).toMatchObject({ guardrail: 'policy', attempt: 1 });
    expect(shownText(events)).toBe('It should arrive by Monday.');
  });

  it('retry at most maxRetries times, then block', async () => {
    const model = new ScriptedModel(['guarantee 1', 'guarantee 2', 'guarantee 3']);
    const soft: Guardrail<OutputSubject> = { name: 'policy', check: () => ({ action: 'retry', feedback: 'no' }) };
    const agent = new Agent({ model, outputGuardrails: [soft], guardrailOptions: { maxRetries: 1 } });
    const error = await agent.invoke('x').catch((e: unknown) => e);
    expect(GuardrailTripped.is(error) && error.reason).toBe('it still asked for another answer after 1 retries: no');
    expect(model.callCount).toBe(2);
  });

  it('count each retry as a model call of the run-tree budget, which stops them', async () => {
    const model = new ScriptedModel(['draft 1', 'draft 2', 'draft 3', 'draft 4'], { loop: true });
    const never: Guardrail<OutputSubject> = { name: 'picky', check: () => ({ action: 'retry', feedback: 'again' }) };
    const agent = new Agent({ model, outputGuardrails: [never], guardrailOptions: { maxRetries: 10 } });
    const result = await agent.invoke('x', { budget: { modelCalls: 2 } });
    expect(result.stopReason).toBe('budget_exceeded');
    expect(model.callCount).toBe(2);
    expect(agent.messages.map(messageText)).toEqual(['x']);
  });
});
